import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { createPagesApp } from '../../../test/pages';

/**
 * Hidden content (issue 15) is gone from every read path for everyone but its author, who gets it
 * marked `hidden: true`; counts move as if it were unpublished or deleted; cached public answers
 * change at once. Each public answer is fetched once before the hide so a stale cached copy
 * would be caught.
 */
let t: TestApp;
let author: TestUser;
let reader: TestUser;
let moderator: TestUser;
beforeAll(async () => {
  t = await createPagesApp();
  [author, reader, moderator] = await Promise.all([
    createUser(t, { name: 'Hidden Author' }),
    createUser(t, { name: 'Reader' }),
    createUser(t, { name: 'Moderator' }),
  ]);
  await t.app.services.moderation.setRole(null, moderator.id, 'moderator');
});
afterAll(async () => t.close());

const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const api = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });
const mod = (what: string, id: string, action: 'hide' | 'restore' | 'suspend' | 'unsuspend') =>
  api('POST', `/moderation/${what}/${id}/${action}`, moderator.token, { reason: 'Test' });
const ids = (body: { blogs: { blogId: string }[] }) => body.blogs.map((b) => b.blogId);
const published = async (user: TestUser) => (await t.app.services.repos.users.findById(user.id))!.published_count;
const commentCount = async (blogId: string) => (await t.app.services.repos.blogs.findByBlogId(blogId))!.comment_count;

/** Every public place a post shows up, as a visitor (cached) or the reader sees it; the tag sitemap names its tag instead. */
async function publicTexts(word: string, tag: string, blogId: string) {
  const urls = [
    '/api/v1/blogs?limit=50',
    `/api/v1/blogs?tag=${tag}&limit=50`,
    `/api/v1/search-blogs?search=${word}`,
    `/api/v1/users/${author.username}/blogs`,
    `/api/v1/users/${reader.username}/liked-blogs`,
    '/feed.xml',
    '/rss.xml',
    '/feed.json',
    `/tag/${tag}/feed.xml`,
    `/@${author.username}/feed.xml`,
    '/sitemaps/posts.xml',
    '/sitemaps/tags.xml',
    '/',
    `/tag/${tag}`,
  ];
  const out: [string, string, string][] = [];
  for (const url of urls) out.push([url, (await get(url)).body, url === '/sitemaps/tags.xml' ? `/tag/${tag}<` : blogId]);
  out.push(['saved (reader)', (await api('GET', `/users/${reader.username}/saved-blogs`, reader.token)).body, blogId]);
  out.push(['feed (reader)', (await api('GET', '/blogs?limit=50', reader.token)).body, blogId]);
  return out;
}

describe('a hidden post', () => {
  it('is gone from every list, page, search, feed, sitemap and count, and back on restore', async () => {
    const word = `zephyr${randomBytes(3).toString('hex')}`;
    const tag = `tag${randomBytes(3).toString('hex')}`;
    await api('PATCH', '/change-saved-liked-blog-visibility', reader.token, { showLikedBlogs: true });
    await api('PATCH', `/follow/${author.id}`, reader.token);
    const { blogId } = await createBlog(t, author, { title: `Post ${word}`, tags: [tag] });
    await api('POST', `/blogs/like/${blogId}`, reader.token);
    await api('PATCH', `/save-blog/${blogId}`, reader.token);
    const commented = await api('POST', `/blogs/comment/${blogId}`, reader.token, { comment: 'Said before the hide' });
    const commentId = commented.json().newComment._id;
    for (const [url, body, needle] of await publicTexts(word, tag, blogId)) expect(body, url).toContain(needle);
    // The reading page and its comments, cached for visitors.
    for (const url of [`/blog/${blogId}`, `/api/v1/blogs/${blogId}`, `/api/v1/blogs/${blogId}/comments`]) {
      expect((await get(url)).statusCode, url).toBe(200);
    }
    expect(await published(author)).toBe(1);
    // The reader's profile counts the post they liked and saved (cached for visitors).
    const readerCounts = async () => {
      const { likedCount, savedCount } = (await get(`/api/v1/users/${reader.username}`)).json().user;
      return [likedCount, savedCount];
    };
    const before = await readerCounts();
    expect(await readerCounts()).toEqual(before);

    expect((await mod('posts', blogId, 'hide')).statusCode).toBe(200);
    expect(await readerCounts()).toEqual([before[0] - 1, before[1] - 1]);
    for (const [url, body, needle] of await publicTexts(word, tag, blogId)) expect(body, url).not.toContain(needle);
    for (const token of [undefined, reader.token]) {
      expect((await get(`/api/v1/blogs/${blogId}`, token)).statusCode).toBe(404);
      expect((await get(`/api/v1/blogs/${blogId}/comments`, token)).statusCode).toBe(404);
    }
    expect((await get(`/blog/${blogId}`)).statusCode).toBe(404);
    expect(await published(author)).toBe(0);
    expect((await get(`/api/v1/users/${author.username}`)).json().user).toMatchObject({ publishedCount: 0 });
    // Nobody reaches it: no like, save or comment.
    expect((await api('POST', `/blogs/like/${blogId}`, reader.token)).statusCode).toBe(404);
    expect((await api('POST', `/blogs/comment/${blogId}`, reader.token, { comment: 'Hi' })).statusCode).toBe(404);
    // Nor changes what they said there: the comment stays as the moderator saw it.
    expect(
      (await api('PATCH', `/blogs/edit-comment/${commentId}`, reader.token, { updatedCommentContent: 'Changed under the hide' }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.services.repos.comments.findById(commentId))?.comment).toBe('Said before the hide');
    // The follower's "new post" notification no longer names it.
    const inbox = (await api('GET', '/notifications', reader.token)).json().notifications;
    expect(JSON.stringify(inbox)).not.toContain(blogId);

    // Its author still has it, marked, on the page and in their own profile list.
    const own = await get(`/api/v1/blogs/${blogId}`, author.token);
    expect([own.statusCode, own.json().blog.hidden]).toEqual([200, true]);
    // A moderator may open its page, marked, to judge it; a draft stays its author's alone.
    const judged = await get(`/api/v1/blogs/${blogId}`, moderator.token);
    expect([judged.statusCode, judged.json().blog?.hidden]).toEqual([200, true]);
    const draft = await createBlog(t, author, { draft: true });
    expect((await get(`/api/v1/blogs/${draft.blogId}`, moderator.token)).statusCode).toBe(404);
    const mine = (await api('GET', `/users/${author.username}/blogs`, author.token)).json().blogs;
    expect(mine.find((b: { blogId: string }) => b.blogId === blogId)?.hidden).toBe(true);
    // Editing it keeps it hidden everywhere (the tag copy too) and uncounted.
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${blogId}`,
      headers: bearer(author.token),
      payload: {
        title: `Post ${word} edited`,
        description: 'd',
        tags: [tag],
        content: { blocks: [{ type: 'paragraph', data: { text: 'x' } }] },
        draft: false,
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await published(author)).toBe(0);
    expect((await get(`/api/v1/blogs?tag=${tag}`)).body).not.toContain(blogId);

    expect((await mod('posts', blogId, 'restore')).statusCode).toBe(200);
    for (const [url, body, needle] of await publicTexts(word, tag, blogId)) expect(body, url).toContain(needle);
    expect(await published(author)).toBe(1);
    expect((await get(`/api/v1/blogs/${blogId}`)).json().blog.hidden).toBe(false);
  });
});

describe('a hidden comment', () => {
  it('is gone for everyone but its author, counts as deleted with its replies, and comes back on restore', async () => {
    const { blogId } = await createBlog(t, author, { title: 'Commented post' });
    const top = (await api('POST', `/blogs/comment/${blogId}`, reader.token, { comment: 'Spammy comment' })).json().newComment;
    const reply = (await api('POST', `/comment/${top._id}/${blogId}`, author.token, { reply: 'Reply below it' })).json().newReply;
    const kept = (await api('POST', `/blogs/comment/${blogId}`, author.token, { comment: 'Fine comment' })).json().newComment;
    const list = async (token?: string) => (await get(`/api/v1/blogs/${blogId}/comments`, token)).json();
    expect((await list()).comments).toHaveLength(2);
    expect(await commentCount(blogId)).toBe(3);

    expect((await mod('comments', top._id, 'hide')).statusCode).toBe(200);
    for (const token of [undefined, moderator.token]) {
      const body = await list(token);
      expect(body.comments.map((c: { _id: string }) => c._id)).toEqual([kept._id]);
      expect(JSON.stringify(body)).not.toContain('Reply below it');
      expect(body.total).toBe(1);
    }
    // Counts as if deleted with its reply: the card, the page.
    expect(await commentCount(blogId)).toBe(1);
    expect((await get(`/api/v1/blogs/${blogId}`)).json().blog.commentCount).toBe(1);
    // The blog's author was notified of the comment: the notification no longer shows it.
    const inbox = (await api('GET', '/notifications', author.token)).json().notifications;
    expect(JSON.stringify(inbox)).not.toContain('Spammy comment');
    // Its author sees it, marked; nobody can like it or reply to it.
    const own = (await list(reader.token)).comments.find((c: { _id: string }) => c._id === top._id);
    expect(own).toMatchObject({ hidden: true, comment: 'Spammy comment' });
    expect((await api('PATCH', `/blogs/like-comment/${top._id}`, author.token)).statusCode).toBe(404);
    expect((await api('POST', `/comment/${top._id}/${blogId}`, author.token, { reply: 'More' })).statusCode).toBe(404);

    // Hiding the reply of a visible comment moves the parent's reply count.
    const r2 = (await api('POST', `/comment/${kept._id}/${blogId}`, reader.token, { reply: 'Second reply' })).json().newReply;
    expect((await list()).comments.find((c: { _id: string }) => c._id === kept._id).replyCount).toBe(1);
    await mod('comments', r2._id, 'hide');
    expect((await list()).comments.find((c: { _id: string }) => c._id === kept._id).replyCount).toBe(0);
    expect(await commentCount(blogId)).toBe(1);

    await mod('comments', top._id, 'restore');
    await mod('comments', r2._id, 'restore');
    expect(await commentCount(blogId)).toBe(4);
    expect(JSON.stringify(await list())).toContain(reply._id);
  });
});

describe('the thread below a hidden comment', () => {
  it('is closed to replies and likes at any depth, counts nothing new, and notifications leave its text out', async () => {
    const [replier, passer] = await Promise.all([createUser(t, { name: 'Replier' }), createUser(t, { name: 'Passer' })]);
    const { blogId } = await createBlog(t, author, { title: 'Thread post' });
    const top = (await api('POST', `/blogs/comment/${blogId}`, reader.token, { comment: 'Hidden soon' })).json().newComment;
    const reply = (await api('POST', `/comment/${top._id}/${blogId}`, replier.token, { reply: 'Reply in the thread' })).json().newReply;
    const deep = (await api('POST', `/comment/${reply._id}/${blogId}`, author.token, { reply: 'Deeper reply text' })).json().newReply;
    expect(deep._id).toBeTruthy();
    expect((await mod('comments', top._id, 'hide')).statusCode).toBe(200);
    expect(await commentCount(blogId)).toBe(0);

    // Nobody answers anything below it, the hidden comment's own author included; nobody else likes there.
    for (const [who, below] of [
      [passer, reply],
      [passer, deep],
      [reader, reply],
      [replier, deep],
    ] as const) {
      const answered = await api('POST', `/comment/${below._id}/${blogId}`, who.token, { reply: 'Sneaked in' });
      expect(answered.statusCode, `${who.name} replies`).toBeGreaterThanOrEqual(403);
      expect(answered.statusCode).toBeLessThan(405);
      // The hidden comment's author still reaches its thread (read, like), as the comment itself.
      if (who === reader) continue;
      const liked = await api('PATCH', `/blogs/like-comment/${below._id}`, who.token);
      expect(liked.statusCode, `${who.name} likes`).toBeGreaterThanOrEqual(403);
      expect(liked.statusCode).toBeLessThan(405);
    }
    expect(await commentCount(blogId)).toBe(0);
    expect((await get(`/api/v1/blogs/${blogId}`)).json().blog.commentCount).toBe(0);
    // Nor reports what it cannot read: a reply below the hidden comment is unknown to a passer.
    const report = (who: TestUser, id: string) =>
      api('POST', '/reports', who.token, { targetType: 'comment', targetId: id, reason: 'spam' });
    expect((await report(passer, deep._id)).statusCode).toBe(404);
    expect((await report(passer, reply._id)).statusCode).toBe(404);
    // The replier was told of the deep reply; the text is below a comment they may not read now.
    const inbox = (await api('GET', '/notifications', replier.token)).json().notifications;
    expect(inbox.some((n: { type: string }) => n.type === 'reply')).toBe(true);
    expect(JSON.stringify(inbox)).not.toContain('Deeper reply text');
    // The hidden comment's author still reads the whole thread, and is told of the reply with its text.
    expect(JSON.stringify((await get(`/api/v1/blogs/${blogId}/comments`, reader.token)).json())).toContain('Deeper reply text');

    await mod('comments', top._id, 'restore');
    expect((await api('POST', `/comment/${deep._id}/${blogId}`, passer.token, { reply: 'Open again' })).statusCode).toBe(201);
    expect(await commentCount(blogId)).toBe(4);
    expect(JSON.stringify((await api('GET', '/notifications', replier.token)).json())).toContain('Deeper reply text');
  });
});

describe('a suspended user', () => {
  it('cannot sign in, loses their tokens, and their content is hidden until unsuspended', async () => {
    const spammer = await createUser(t, { name: 'Spammer' });
    const { blogId } = await createBlog(t, spammer, { title: 'Spam post' });
    const other = await createBlog(t, author, { title: 'Victim post' });
    await api('POST', `/blogs/comment/${other.blogId}`, spammer.token, { comment: 'Spam comment' });
    await api('PATCH', `/follow/${reader.id}`, spammer.token);
    const fromSpammer = async () => {
      const body = (await api('GET', '/notifications?limit=50', reader.token)).json();
      return [body.notifications.filter((n: { sender: { _id: string } | null }) => n.sender?._id === spammer.id).length, body.unreadCount];
    };
    const [sent, unread] = await fromSpammer();
    expect(sent).toBe(1);
    expect((await get('/api/v1/blogs?limit=50')).body).toContain(blogId);
    expect(await commentCount(other.blogId)).toBe(1);

    expect((await mod('users', spammer.id, 'suspend')).statusCode).toBe(200);
    expect((await get('/api/v1/me', spammer.token)).statusCode).toBe(401);
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: spammer.email, password: spammer.password },
    });
    expect([signin.statusCode, signin.json().message]).toEqual([
      403,
      'This account has been suspended. Contact the site operator if you think this is a mistake.',
    ]);
    expect((await get('/api/v1/blogs?limit=50')).body).not.toContain(blogId);
    expect((await get(`/api/v1/blogs/${blogId}`)).statusCode).toBe(404);
    expect((await get(`/api/v1/blogs/${other.blogId}/comments`)).body).not.toContain('Spam comment');
    expect(await commentCount(other.blogId)).toBe(0);
    expect(await published(spammer)).toBe(0);
    expect((await get('/sitemaps/profiles.xml')).body).not.toContain(spammer.username);
    // What they sent others is gone from lists and unread counts.
    expect(await fromSpammer()).toEqual([0, unread - 1]);

    // A post a moderator hid stays hidden after the unsuspension.
    await mod('posts', blogId, 'hide');
    await mod('users', spammer.id, 'unsuspend');
    expect(await fromSpammer()).toEqual([1, unread]);
    expect(await commentCount(other.blogId)).toBe(1);
    expect((await get(`/api/v1/blogs/${blogId}`)).statusCode).toBe(404);
    await mod('posts', blogId, 'restore');
    expect((await get(`/api/v1/blogs/${blogId}`)).statusCode).toBe(200);
    expect(await published(spammer)).toBe(1);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: spammer.email, password: spammer.password },
    });
    expect(again.statusCode).toBe(200);
  });
});
