import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });
const rows = (table: 'likes' | 'saves' | 'comment_likes', userId: string) =>
  t.database.db.selectFrom(table).select('user_id').where('user_id', '=', userId).execute();
const blogCounts = async (blogId: string) => {
  const b = (await api('GET', `/blogs/${blogId}`, (await reader()).token)).json().blog;
  return { likes: b.likeCount, saves: b.saveCount };
};
let someone: TestUser | undefined;
const reader = async () => (someone ??= await createUser(t));

/**
 * A block made after a like or save (issue 16 gap): the blocked reader can still take their own
 * like, save or comment like back, but cannot add one again (canWithdrawReaction / canInteract).
 */
describe('withdrawing a reaction across a block', () => {
  it("lets the blocked reader un-like and un-save the blocker's post, and refuses liking or saving again", async () => {
    const author = await createUser(t, { name: 'Author' });
    const fan = await createUser(t, { name: 'Former fan' });
    const { blogId } = await createBlog(t, author);
    expect((await api('POST', `/blogs/like/${blogId}`, fan.token)).json()).toMatchObject({ liked: true, likeCount: 1 });
    expect((await api('PATCH', `/save-blog/${blogId}`, fan.token)).json()).toMatchObject({ saved: true, saveCount: 1 });
    expect((await api('POST', `/users/${fan.id}/block`, author.token)).statusCode).toBe(200);

    const unlike = await api('POST', `/blogs/like/${blogId}`, fan.token);
    expect(unlike.statusCode, unlike.body).toBe(200);
    expect(unlike.json()).toMatchObject({ liked: false, likeCount: 0 });
    const unsave = await api('PATCH', `/save-blog/${blogId}`, fan.token);
    expect(unsave.statusCode, unsave.body).toBe(200);
    expect(unsave.json()).toMatchObject({ saved: false, saveCount: 0 });
    expect(await rows('likes', fan.id)).toEqual([]);
    expect(await rows('saves', fan.id)).toEqual([]);
    expect(await blogCounts(blogId)).toEqual({ likes: 0, saves: 0 });

    // Adding them again is reaching the blocker: refused, and nothing changes.
    const like = await api('POST', `/blogs/like/${blogId}`, fan.token);
    expect([like.statusCode, like.json().message]).toEqual([403, 'You cannot like or save this post']);
    const save = await api('PATCH', `/save-blog/${blogId}`, fan.token);
    expect([save.statusCode, save.json().message]).toEqual([403, 'You cannot like or save this post']);
    expect(await rows('likes', fan.id)).toEqual([]);
    expect(await rows('saves', fan.id)).toEqual([]);
    expect(await blogCounts(blogId)).toEqual({ likes: 0, saves: 0 });
  });

  it('works the other way too: a reader who blocks the author can take back their own like', async () => {
    const author = await createUser(t);
    const fan = await createUser(t);
    const { blogId } = await createBlog(t, author);
    await api('POST', `/blogs/like/${blogId}`, fan.token);
    expect((await api('POST', `/users/${author.id}/block`, fan.token)).statusCode).toBe(200);
    expect((await api('POST', `/blogs/like/${blogId}`, fan.token)).json()).toMatchObject({ liked: false, likeCount: 0 });
    expect((await api('POST', `/blogs/like/${blogId}`, fan.token)).statusCode).toBe(403);
  });

  it("lets the blocked reader un-like the blocker's comment, and refuses liking it again", async () => {
    const author = await createUser(t);
    const fan = await createUser(t);
    const { blogId } = await createBlog(t, author);
    const comment = (await api('POST', `/blogs/comment/${blogId}`, author.token, { comment: 'Thanks for reading' })).json().newComment;
    expect((await api('PATCH', `/blogs/like-comment/${comment._id}`, fan.token)).json()).toMatchObject({ liked: true, likeCount: 1 });
    expect((await api('POST', `/users/${fan.id}/block`, author.token)).statusCode).toBe(200);

    const unlike = await api('PATCH', `/blogs/like-comment/${comment._id}`, fan.token);
    expect(unlike.statusCode, unlike.body).toBe(200);
    expect(unlike.json()).toMatchObject({ liked: false, likeCount: 0 });
    expect(await rows('comment_likes', fan.id)).toEqual([]);
    const again = await api('PATCH', `/blogs/like-comment/${comment._id}`, fan.token);
    expect([again.statusCode, again.json().message]).toEqual([403, 'You cannot like this comment']);
    expect(await rows('comment_likes', fan.id)).toEqual([]);
    const stored = await t.database.db.selectFrom('comments').select('like_count').where('id', '=', comment._id).executeTakeFirstOrThrow();
    expect(stored.like_count).toBe(0);
  });

  it('still refuses a like on a draft the reader cannot read (withdrawing needs a readable post)', async () => {
    const author = await createUser(t);
    const fan = await createUser(t);
    const { blogId } = await createBlog(t, author, { draft: true });
    expect((await api('POST', `/blogs/like/${blogId}`, fan.token)).statusCode).toBe(404);
  });
});
