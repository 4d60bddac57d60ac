import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let author: TestUser;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, { name: 'Blog Author' });
  alice = await createUser(t, { name: 'Alice' });
  bob = await createUser(t, { name: 'Bob' });
});
afterAll(async () => t.close());

const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, payload });
const comment = async (token: string, blogId: string, text: string) =>
  (await inject('POST', `/blogs/comment/${blogId}`, token, { comment: text })).json().newComment;
const reply = async (token: string, parentId: string, blogId: string, text: string) =>
  (await inject('POST', `/comment/${parentId}/${blogId}`, token, { reply: text })).json().newReply;
const thread = async (blogId: string, token?: string) => (await inject('GET', `/blogs/${blogId}/comments`, token)).json();

describe('comments and replies', () => {
  it('posts, nests replies at any depth and counts them', async () => {
    const { blogId } = await createBlog(t, author);
    const res = await inject('POST', `/blogs/comment/${blogId}`, alice.token, { comment: '  First!  ' });
    expect(res.statusCode).toBe(201);
    const c = res.json().newComment;
    expect(c).toMatchObject({
      comment: 'First!',
      user: { _id: alice.id, name: 'Alice', username: alice.username },
      likeCount: 0,
      replyCount: 0,
      parentComment: null,
      replies: [],
    });
    const r1 = await reply(bob.token, c._id, blogId, 'A reply');
    expect(r1.parentComment).toBe(c._id);
    const r2 = await reply(alice.token, r1._id, blogId, 'A reply to the reply');
    const list = await thread(blogId, alice.token);
    expect(list.total).toBe(3);
    expect(list.comments).toHaveLength(1);
    expect(list.comments[0].replyCount).toBe(1);
    expect(list.comments[0].replies[0]._id).toBe(r1._id);
    expect(list.comments[0].replies[0].replies[0]._id).toBe(r2._id);
    // An anonymous reader (the cached thread) gets the same nesting, with a comment without replies beside it.
    await inject('POST', `/blogs/comment/${blogId}`, bob.token, { comment: 'No replies here' });
    const anonymous = await thread(blogId);
    expect(anonymous.comments.map((c: { replies: unknown[] }) => c.replies.length)).toEqual([0, 1]);
    expect(anonymous.comments[1].replies[0].replies[0]._id).toBe(r2._id);
    expect((await inject('GET', `/blogs/${blogId}`)).json().blog.commentCount).toBe(4);
  });

  it('refuses blank text, unknown blogs and parents from another blog, and needs a token', async () => {
    const { blogId } = await createBlog(t, author);
    const other = await createBlog(t, author);
    for (const text of ['', '   ', '\n\t']) {
      const r = await inject('POST', `/blogs/comment/${blogId}`, alice.token, { comment: text });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toBe('Comment cannot be empty');
    }
    expect((await inject('POST', `/blogs/comment/${blogId}`, alice.token, { comment: 'x'.repeat(5001) })).statusCode).toBe(400);
    expect((await inject('POST', '/blogs/comment/no-such-blog', alice.token, { comment: 'hi' })).statusCode).toBe(404);
    expect((await inject('POST', `/blogs/comment/${blogId}`, undefined, { comment: 'hi' })).statusCode).toBe(401);
    const c = await comment(alice.token, other.blogId, 'elsewhere');
    expect((await inject('POST', `/comment/${c._id}/${blogId}`, bob.token, { reply: 'cross' })).statusCode).toBe(404);
    expect((await thread(blogId)).total).toBe(0);
  });

  it('lets only the owner edit', async () => {
    const { blogId } = await createBlog(t, author);
    const c = await comment(alice.token, blogId, 'typo');
    expect((await inject('PATCH', `/blogs/edit-comment/${c._id}`, bob.token, { updatedCommentContent: 'hacked' })).statusCode).toBe(403);
    expect((await inject('PATCH', `/blogs/edit-comment/${c._id}`, author.token, { updatedCommentContent: 'hacked' })).statusCode).toBe(403);
    expect((await inject('PATCH', `/blogs/edit-comment/${c._id}`, alice.token, { updatedCommentContent: '  ' })).statusCode).toBe(400);
    const ok = await inject('PATCH', `/blogs/edit-comment/${c._id}`, alice.token, { updatedCommentContent: 'fixed' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().updatedComment).toMatchObject({ _id: c._id, comment: 'fixed' });
  });

  it('lets the owner or the blog creator delete, removing replies and their likes', async () => {
    const { blogId } = await createBlog(t, author);
    const c = await comment(alice.token, blogId, 'root');
    const r = await reply(bob.token, c._id, blogId, 'child');
    await reply(alice.token, r._id, blogId, 'grandchild');
    await inject('PATCH', `/blogs/like-comment/${r._id}`, author.token);
    expect((await inject('DELETE', `/blogs/comment/${c._id}`, bob.token)).statusCode).toBe(403);
    const del = await inject('DELETE', `/blogs/comment/${c._id}`, author.token);
    expect(del.json()).toEqual({ success: true, message: 'Comment deleted' });
    expect((await thread(blogId)).total).toBe(0);
    expect((await t.database.db.selectFrom('comment_likes').selectAll().where('comment_id', '=', r._id).execute()).length).toBe(0);
    expect((await t.database.db.selectFrom('comments').selectAll().where('id', '=', r._id).execute()).length).toBe(0);

    const mine = await comment(bob.token, blogId, 'mine');
    const child = await reply(alice.token, mine._id, blogId, 'under mine');
    expect((await inject('DELETE', `/blogs/comment/${child._id}`, bob.token)).statusCode).toBe(403);
    expect((await inject('DELETE', `/blogs/comment/${child._id}`, alice.token)).statusCode).toBe(200);
    const left = await thread(blogId);
    expect(left.total).toBe(1);
    expect(left.comments[0].replyCount).toBe(0);
  });

  it('toggles comment likes once per user, also at once', async () => {
    const { blogId } = await createBlog(t, author);
    const c = await comment(alice.token, blogId, 'like me');
    const first = await inject('PATCH', `/blogs/like-comment/${c._id}`, bob.token);
    expect(first.json()).toEqual({ success: true, message: 'Comment liked', liked: true, likeCount: 1 });
    expect((await thread(blogId, bob.token)).comments[0]).toMatchObject({ likeCount: 1, isLiked: true });
    const burst = await Promise.all(Array.from({ length: 9 }, () => inject('PATCH', `/blogs/like-comment/${c._id}`, author.token)));
    for (const r of burst) expect(r.statusCode).toBe(200);
    const rows = await t.database.db.selectFrom('comment_likes').selectAll().where('comment_id', '=', c._id).execute();
    expect((await thread(blogId)).comments[0].likeCount).toBe(rows.length);
  });

  it('pages top-level comments newest first', async () => {
    const { blogId } = await createBlog(t, author);
    for (let i = 1; i <= 5; i++) await comment(alice.token, blogId, `c${i}`);
    const p1 = (await inject('GET', `/blogs/${blogId}/comments?limit=2&page=1`)).json();
    expect(p1.comments.map((c: { comment: string }) => c.comment)).toEqual(['c5', 'c4']);
    expect(p1.hasMore).toBe(true);
    const p3 = (await inject('GET', `/blogs/${blogId}/comments?limit=2&page=3`)).json();
    expect(p3.comments.map((c: { comment: string }) => c.comment)).toEqual(['c1']);
    expect(p3.hasMore).toBe(false);
    expect((await inject('GET', `/blogs/${blogId}/comments?limit=500`)).statusCode).toBe(400);
  });
});
