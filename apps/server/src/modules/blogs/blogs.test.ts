import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createBlog, everyBlock } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let author: TestUser;
let reader: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, { name: 'Ada Author' });
  reader = await createUser(t, { name: 'Rea Reader' });
});
afterAll(async () => t.close());

const post = (token: string | null, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v1/blogs', headers: token ? bearer(token) : {}, payload: payload as object });
const get = (blogId: string, token?: string) => t.app.inject({ url: `/api/v1/blogs/${blogId}`, headers: token ? bearer(token) : {} });

const paragraph = { type: 'paragraph', data: { text: 'Some text' } };

describe('POST /api/v1/blogs and GET /api/v1/blogs/:id', () => {
  it('stores every block type, cleaned, and serves it on the reading page', async () => {
    const res = await post(author.token, {
      title: 'Kysely: the Guide!',
      description: 'Typed SQL',
      tags: ['Kysely', 'SQL', 'kysely'],
      content: { blocks: everyBlock() },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Blog created successfully');
    const { blogId } = res.json().blog;
    expect(blogId).toMatch(/^kysely-the-guide-[a-z0-9]{6}$/);

    const page = await get(blogId);
    expect(page.statusCode).toBe(200);
    const blog = page.json().blog;
    expect(blog).toMatchObject({
      blogId,
      title: 'Kysely: the Guide!',
      description: 'Typed SQL',
      tags: ['kysely', 'sql'],
      draft: false,
      creator: { _id: author.id, name: 'Ada Author', username: author.username, profilePic: null },
      readingTime: 2,
      likeCount: 0,
      isLiked: false,
      isSaved: false,
      isFollowing: false,
    });
    const types = blog.content.blocks.map((b: { type: string }) => b.type);
    expect(types).toEqual(['header', 'paragraph', 'list', 'code', 'quote', 'delimiter', 'table', 'embed', 'image']);
    const link = blog.content.blocks[1].data.text;
    expect(link).toContain('<a href="https://kysely.dev" target="_blank" rel="noopener noreferrer nofollow ugc">docs</a>');
    expect(link).toContain('<mark class="cdx-marker">query builder</mark>');
    expect(blog.content.blocks[1].tunes).toEqual({ textVariant: 'call-out' });
    expect(blog.content.blocks[2].data.items[0].items[0].content).toBe('npm i kysely');
    // The embed URL is rebuilt from the source; the client-sent one is ignored.
    expect(blog.content.blocks[7].data).toMatchObject({ service: 'youtube', embed: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' });
  });

  it('drops empty paragraphs and headers and keeps the order', async () => {
    const blocks = [
      { type: 'paragraph', data: { text: '   ' } },
      { type: 'header', data: { text: '<b> </b>', level: 3 } },
      { type: 'paragraph', data: { text: 'kept' } },
      { type: 'image', data: { file: { url: '' }, caption: '' } },
    ];
    const res = await post(author.token, { title: 'Sparse', description: 'Mostly empty', content: { blocks } });
    const blog = (await get(res.json().blog.blogId)).json().blog;
    expect(blog.content.blocks).toEqual([{ type: 'paragraph', data: { text: 'kept' } }]);
    expect(blog.readingTime).toBe(1);
  });

  it.each([
    [{ content: { blocks: [{ type: 'script', data: {} }] } }, 400, "unknown block type 'script'"],
    [{ content: { blocks: [{ type: 'header', data: { text: 'x', level: 5 } }] } }, 400, 'Header level must be 2, 3 or 4'],
    [
      {
        content: {
          blocks: [{ type: 'embed', data: { service: 'evil', source: 'https://evil.example/x', embed: 'https://evil.example/x' } }],
        },
      },
      400,
      'known services',
    ],
    [{ content: { blocks: [{ type: 'image', data: { file: { url: 'javascript:alert(1)' } } }] } }, 400, 'image URL'],
    [{ content: { blocks: [{ type: 'paragraph', data: { text: 'x'.repeat(600_000) } }] } }, 413, 'too large'],
    [{ content: '{"blocks": [' }, 400, 'valid JSON'],
    [{ title: '   ' }, 400, 'Title is required'],
    [{ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 400, 'You can add up to 10 tags maximum'],
    [{ tags: ['<script>'] }, 400, 'Tags can contain'],
    [{ image: 'javascript:alert(1)' }, 400, 'image'],
  ])('refuses bad input %# with a clear message and stores nothing', async (fields, status, message) => {
    const before = await countRows(t, 'blogs');
    const res = await post(author.token, { title: 'Bad', description: 'Bad input', content: { blocks: [paragraph] }, ...fields });
    expect(res.statusCode).toBe(status);
    expect(res.json().success).toBe(false);
    expect(res.json().message).toContain(message);
    expect(await countRows(t, 'blogs')).toBe(before);
  });

  it('needs a token to write and a real blog to read', async () => {
    expect((await post(null, { title: 'x' })).statusCode).toBe(401);
    const missing = await get('no-such-blog');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Blog not found');
  });
});

describe('drafts and permissions', () => {
  it('shows a draft only to its author, everywhere', async () => {
    const res = await post(author.token, {
      title: 'Secret zebra draft',
      tags: ['zebra'],
      draft: 'true',
      content: { blocks: [{ type: 'paragraph', data: { text: 'unpublished zebra thoughts' } }] },
    });
    expect(res.json().message).toBe('Draft saved successfully');
    const { blogId } = res.json().blog;
    expect((await get(blogId, author.token)).json().blog.draft).toBe(true);
    expect((await get(blogId, reader.token)).statusCode).toBe(404);
    expect((await get(blogId)).statusCode).toBe(404);
    const feed = (await t.app.inject({ url: '/api/v1/blogs?limit=50' })).json();
    expect(feed.blogs.some((b: { blogId: string }) => b.blogId === blogId)).toBe(false);
    expect((await t.app.inject({ url: '/api/v1/search-blogs?search=zebra' })).json().blogs).toEqual([]);
    expect((await t.app.inject({ url: '/api/v1/search-blogs?tag=zebra' })).json().blogs).toEqual([]);
    // Another user cannot edit or delete it either, nor learn it exists.
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${blogId}`,
      headers: bearer(reader.token),
      payload: { title: 'mine now' },
    });
    expect(patch.statusCode).toBe(404);
  });

  it('lets only the author update or delete a published blog', async () => {
    const { blogId } = await createBlog(t, author);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${blogId}`,
      headers: bearer(reader.token),
      payload: { title: 'Hijacked' },
    });
    expect(patch.statusCode).toBe(403);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${blogId}`, headers: bearer(reader.token) });
    expect(del.statusCode).toBe(403);
    expect((await get(blogId)).json().blog.title).toBe('A post about Kysely');
  });

  it('updates a blog and moves it between draft and published', async () => {
    const { blogId } = await createBlog(t, author, { title: 'Before' });
    const published = async () => (await t.app.services.repos.users.findById(author.id))!.published_count;
    const count = await published();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${blogId}`,
      headers: bearer(author.token),
      payload: {
        title: 'After',
        description: 'new',
        tags: ['after'],
        draft: true,
        content: { blocks: [{ type: 'paragraph', data: { text: 'updated body' } }] },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Blog updated successfully');
    expect(await published()).toBe(count - 1);
    const blog = (await get(blogId, author.token)).json().blog;
    expect(blog).toMatchObject({ title: 'After', description: 'new', tags: ['after'], draft: true, blogId });
    expect((await t.app.inject({ url: '/api/v1/search-blogs?tag=after' })).json().blogs).toEqual([]);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${blogId}`,
      headers: bearer(author.token),
      payload: { title: 'After', description: 'new', tags: ['after'], draft: false, content: { blocks: [paragraph] } },
    });
    expect(await published()).toBe(count);
    expect((await t.app.inject({ url: '/api/v1/search-blogs?tag=after' })).json().blogs.map((b: { blogId: string }) => b.blogId)).toEqual([
      blogId,
    ]);
  });
});

describe('PATCH /api/v1/blogs/:id with fields left out', () => {
  const patch = (blogId: string, payload: object) =>
    t.app.inject({ method: 'PATCH', url: `/api/v1/blogs/${blogId}`, headers: bearer(author.token), payload });

  it('keeps what the body leaves out: a new title alone neither publishes a draft nor empties it', async () => {
    const { blogId } = await createBlog(t, author, { title: 'Kept draft', description: 'Kept words', tags: ['kept'], draft: true });
    const before = (await get(blogId, author.token)).json().blog;
    const res = await patch(blogId, { title: 'Renamed draft' });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await get(blogId, author.token)).json().blog;
    expect(after).toMatchObject({ title: 'Renamed draft', description: 'Kept words', tags: ['kept'], draft: true });
    expect(after.content).toEqual(before.content);
    expect((await get(blogId)).statusCode).toBe(404);
  });

  it('publishes a draft on draft: false alone, with its own content, and refuses an unpublishable one', async () => {
    const { blogId } = await createBlog(t, author, { title: 'Ready draft', tags: ['ready'], draft: true });
    const res = await patch(blogId, { draft: false });
    expect(res.statusCode, res.body).toBe(200);
    const blog = (await get(blogId)).json().blog;
    expect(blog).toMatchObject({ title: 'Ready draft', description: 'How to use it', tags: ['ready'], draft: false });
    expect(blog.content.blocks.length).toBe(everyBlock().length);

    const empty = await createBlog(t, author, { description: '', content: { blocks: [] }, draft: true });
    const refused = await patch(empty.blogId, { draft: false });
    expect(refused.statusCode).toBe(400);
    expect((await get(empty.blogId)).statusCode).toBe(404);
  });

  it('refuses a body that names nothing to change, and leaves the post, its version and its history as they were', async () => {
    const { blogId } = await createBlog(t, author, { title: 'Untouched' });
    const before = (await get(blogId, author.token)).json().blog;
    const revisions = async () => (await t.app.inject({ url: `/api/v1/blogs/${blogId}/revisions`, headers: bearer(author.token) })).json();
    const history = await revisions();
    for (const body of [{}, { colour: 'red' }, { version: before.version }]) {
      const res = await patch(blogId, body);
      expect([res.statusCode, res.json().message], JSON.stringify(body)).toEqual([400, 'Nothing to update']);
    }
    const after = (await get(blogId, author.token)).json().blog;
    expect([after.version, after.updatedAt]).toEqual([before.version, before.updatedAt]);
    expect(await revisions()).toEqual(history);
  });

  it('still refuses a title made empty, and a scheduled time keeps the post a draft', async () => {
    const { blogId } = await createBlog(t, author, { draft: true });
    expect((await patch(blogId, { title: '   ' })).statusCode).toBe(400);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await patch(blogId, { scheduledAt: at });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(blogId, author.token)).json().blog.draft).toBe(true);
    expect((await get(blogId)).statusCode).toBe(404);
  });
});

describe("a post's first publication", () => {
  const patch = (blogId: string, payload: object) =>
    t.app.inject({ method: 'PATCH', url: `/api/v1/blogs/${blogId}`, headers: bearer(author.token), payload });
  const newPostNotices = async (user: TestUser, blogId: string) => {
    const res = await t.app.inject({ url: '/api/v1/notifications?limit=50', headers: bearer(user.token) });
    return (res.json().notifications as { message?: string; blog?: { blogId: string } }[]).filter(
      (n) => n.message === 'published a new post' && n.blog?.blogId === blogId,
    ).length;
  };
  const newest = async () => (await t.app.inject({ url: '/api/v1/blogs?limit=1' })).json().blogs[0]?.blogId;

  it('dates an old draft when it goes out, so it leads the feeds; followers are told once, not at each republication', async () => {
    const fan = await createUser(t, { name: 'Fay Follower' });
    expect((await t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${author.id}`, headers: bearer(fan.token) })).statusCode).toBe(200);
    const { blogId } = await createBlog(t, author, { title: 'Begun long ago', draft: true });
    await createBlog(t, reader, { title: 'Written after the draft' });
    const begun = (await get(blogId, author.token)).json().blog.createdAt;

    expect((await patch(blogId, { draft: false })).statusCode).toBe(200);
    const published = (await get(blogId)).json().blog.createdAt;
    expect(Date.parse(published)).toBeGreaterThan(Date.parse(begun));
    expect(await newest()).toBe(blogId);
    const feed = await t.app.inject({ url: '/feed.json' });
    expect(feed.json().items[0].url).toMatch(new RegExp(`/blog/${blogId}$`));
    expect(feed.json().items[0].date_published).toBe(published);
    expect(await newPostNotices(fan, blogId)).toBe(1);

    // Back to a draft and out again: the same date, and no second notice.
    await createBlog(t, reader, { title: 'Written while it was a draft again' });
    expect((await patch(blogId, { draft: true })).statusCode).toBe(200);
    expect((await patch(blogId, { draft: false })).statusCode).toBe(200);
    expect((await get(blogId)).json().blog.createdAt).toBe(published);
    expect(await newest()).not.toBe(blogId);
    expect(await newPostNotices(fan, blogId)).toBe(1);
  });

  it('search finds it as the newest of equal matches once published', async () => {
    const word = `quokka${Date.now() % 100000}`;
    const { blogId } = await createBlog(t, author, { title: `${word} alpha`, tags: ['quokka'], draft: true });
    const other = await createBlog(t, reader, { title: `${word} gamma`, tags: ['quokka'] });
    const found = async () =>
      (await t.app.inject({ url: `/api/v1/search-blogs?search=${word}` })).json().blogs.map((b: { blogId: string }) => b.blogId);
    expect(await found()).toEqual([other.blogId]);
    expect((await patch(blogId, { draft: false })).statusCode).toBe(200);
    expect(await found()).toEqual([blogId, other.blogId]);
  });

  it('keeps the date of a post published before published_at existed when it comes back from a draft', async () => {
    const fan = await createUser(t, { name: 'Old Fan' });
    await t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${author.id}`, headers: bearer(fan.token) });
    const { _id, blogId } = await createBlog(t, author, { title: 'Published before 0029' });
    await t.database.db.updateTable('blogs').set({ published_at: null }).where('id', '=', _id).execute();
    const date = (await get(blogId)).json().blog.createdAt;
    expect(await newPostNotices(fan, blogId)).toBe(1); // when it was created
    expect((await patch(blogId, { draft: true })).statusCode).toBe(200);
    expect((await patch(blogId, { draft: false })).statusCode).toBe(200);
    expect((await get(blogId)).json().blog.createdAt).toBe(date);
    expect(await newPostNotices(fan, blogId)).toBe(1);
  });
});

describe('deleting a blog', () => {
  it('removes its likes, saves, tags, comments, replies, comment likes and notifications', async () => {
    const { _id, blogId } = await createBlog(t, author);
    const db = t.database.db;
    const now = new Date().toISOString();
    await db.insertInto('likes').values({ user_id: reader.id, blog_id: _id, created_at: now }).execute();
    await db.insertInto('saves').values({ user_id: reader.id, blog_id: _id, created_at: now }).execute();
    const c = { blog_id: _id, user_id: reader.id, comment: 'hi', like_count: 0, reply_count: 0, created_at: now, updated_at: now };
    await db
      .insertInto('comments')
      .values({ ...c, id: '0193a1b2-0000-7000-8000-000000000001', parent_id: null })
      .execute();
    await db
      .insertInto('comments')
      .values({ ...c, id: '0193a1b2-0000-7000-8000-000000000002', parent_id: '0193a1b2-0000-7000-8000-000000000001' })
      .execute();
    await db
      .insertInto('comment_likes')
      .values({ comment_id: '0193a1b2-0000-7000-8000-000000000002', user_id: author.id, created_at: now })
      .execute();
    await db
      .insertInto('notifications')
      .values({
        id: '0193a1b2-0000-7000-8000-000000000003',
        recipient_id: author.id,
        sender_id: reader.id,
        type: 'like',
        blog_id: _id,
        comment_id: null,
        message: null,
        is_read: 0,
        created_at: now,
      })
      .execute();

    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${blogId}`, headers: bearer(author.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Blog deleted successfully');
    for (const table of ['likes', 'saves', 'blog_tags', 'comments', 'notifications'] as const) {
      expect(await countRows(t, table, ['blog_id', _id])).toBe(0);
    }
    expect(await countRows(t, 'comment_likes', ['user_id', author.id])).toBe(0);
    expect((await get(blogId)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: '/api/v1/search-blogs?search=kysely' })).json().blogs.some((b: { blogId: string }) => b.blogId === blogId),
    ).toBe(false);
  });
});
