import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });
const inbox = async (user: TestUser) => (await api('GET', '/notifications', user.token)).json();
const counts = async (id: string) => {
  const u = (await t.app.services.repos.users.findById(id))!;
  return { followers: u.follower_count, following: u.following_count };
};
const profile = async (viewer: TestUser, of: TestUser) => (await api('GET', `/users/${of.username}`, viewer.token)).json().user;
const feedIds = async (viewer: TestUser) =>
  (await api('GET', '/blogs?limit=50', viewer.token)).json().blogs.map((b: { blogId: string }) => b.blogId);

describe('blocking', () => {
  it('removes follows both ways, refuses follow, comment, reply, likes, and tells the blocker nothing', async () => {
    const a = await createUser(t, { name: 'Blocker' });
    const b = await createUser(t, { name: 'Blocked' });
    await api('PATCH', `/follow/${b.id}`, a.token);
    await api('PATCH', `/follow/${a.id}`, b.token);
    const { blogId } = await createBlog(t, a, { title: 'Blocker post' });
    const mine = (await api('POST', `/blogs/comment/${blogId}`, a.token, { comment: 'First' })).json().newComment;
    expect((await inbox(a)).notifications.map((n: { type: string }) => n.type)).toEqual(['follow']);

    const res = await api('POST', `/users/${b.id}/block`, a.token);
    expect(res.json()).toEqual({ success: true, message: 'User blocked', isBlocked: true, isMuted: false });
    expect(await counts(a.id)).toEqual({ followers: 0, following: 0 });
    expect(await counts(b.id)).toEqual({ followers: 0, following: 0 });
    expect((await profile(a, b)).isBlocked).toBe(true);
    expect((await profile(b, a)).isBlocked).toBe(false);
    // The follow notification from before the block is no longer shown either.
    expect(await inbox(a)).toMatchObject({ notifications: [], unreadCount: 0 });

    const follow = await api('PATCH', `/follow/${a.id}`, b.token);
    expect([follow.statusCode, follow.json().message]).toEqual([403, 'You cannot follow this user']);
    const comment = await api('POST', `/blogs/comment/${blogId}`, b.token, { comment: 'Hi' });
    expect([comment.statusCode, comment.json().message]).toEqual([403, 'You cannot comment on this post']);
    const reply = await api('POST', `/comment/${mine._id}/${blogId}`, b.token, { reply: 'Hi' });
    expect([reply.statusCode, reply.json().message]).toEqual([403, 'You cannot reply to this comment']);
    const likeComment = await api('PATCH', `/blogs/like-comment/${mine._id}`, b.token);
    expect([likeComment.statusCode, likeComment.json().message]).toEqual([403, 'You cannot like this comment']);
    expect((await api('POST', `/blogs/like/${blogId}`, b.token)).statusCode).toBe(403);
    // Either way: the blocker cannot follow the blocked user either.
    expect((await api('PATCH', `/follow/${b.id}`, a.token)).statusCode).toBe(403);
    // Reading stays open.
    expect((await api('GET', `/blogs/${blogId}`, b.token)).statusCode).toBe(200);
    expect(await inbox(a)).toMatchObject({ notifications: [], unreadCount: 0 });
    expect(await t.app.services.repos.blocking.silencedRecipients(b.id, [a.id])).toEqual(new Set([a.id]));

    const list = (await api('GET', '/blocks', a.token)).json();
    expect(list.users.map((u: { _id: string }) => u._id)).toEqual([b.id]);
    expect(list.hasMore).toBe(false);

    expect((await api('DELETE', `/users/${b.id}/block`, a.token)).json()).toMatchObject({ message: 'User unblocked', isBlocked: false });
    expect((await api('PATCH', `/follow/${a.id}`, b.token)).json().following).toBe(true);
    expect((await api('POST', `/blogs/comment/${blogId}`, b.token, { comment: 'Back' })).statusCode).toBe(201);
    // The new follow's notice; the one of the follow the block ended went with it, as an unfollow's does.
    expect((await inbox(a)).notifications.map((n: { type: string }) => n.type)).toEqual(['comment', 'follow']);
    expect((await api('GET', '/blocks', a.token)).json().users).toEqual([]);
  });

  it('refuses yourself, unknown users and visitors', async () => {
    const a = await createUser(t);
    expect((await api('POST', `/users/${a.id}/block`, a.token)).statusCode).toBe(400);
    expect((await api('POST', '/users/0193a1b2-0000-7000-8000-00000000dead/mute', a.token)).statusCode).toBe(404);
    expect((await api('POST', '/users/not-an-id/block', a.token)).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/users/${a.id}/block` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/blocks' })).statusCode).toBe(401);
  });
});

describe('muting', () => {
  it("hides the muted author's posts and notifications from the muter only, and unmute restores them", async () => {
    const muter = await createUser(t, { name: 'Muter' });
    const loud = await createUser(t, { name: 'Loud' });
    const other = await createUser(t, { name: 'Other' });
    const { blogId: loudPost } = await createBlog(t, loud, { title: 'Loud post' });
    const { blogId: muterPost } = await createBlog(t, muter, { title: 'Muter post' });
    await api('POST', `/blogs/comment/${muterPost}`, loud.token, { comment: 'Before' });
    expect(await feedIds(muter)).toContain(loudPost);

    expect((await api('POST', `/users/${loud.id}/mute`, muter.token)).json()).toMatchObject({ message: 'User muted', isMuted: true });
    expect((await profile(muter, loud)).isMuted).toBe(true);
    expect(await feedIds(muter)).not.toContain(loudPost);
    expect(await feedIds(muter)).toContain(muterPost);
    expect(await feedIds(other)).toContain(loudPost);
    // Visitors get the shared feed.
    expect((await t.app.inject({ url: '/api/v1/blogs?limit=50' })).json().blogs.map((b: { blogId: string }) => b.blogId)).toContain(
      loudPost,
    );
    // Nobody is told, and the muted user can still follow and comment.
    expect((await inbox(loud)).notifications).toEqual([]);
    expect((await api('PATCH', `/follow/${muter.id}`, loud.token)).statusCode).toBe(200);
    expect((await api('POST', `/blogs/comment/${muterPost}`, loud.token, { comment: 'After' })).statusCode).toBe(201);
    await api('POST', `/blogs/comment/${muterPost}`, other.token, { comment: 'Other' });
    expect((await inbox(muter)).notifications.map((n: { sender: { name: string } }) => n.sender.name)).toEqual(['Other']);
    expect((await api('GET', '/blocks?kind=muted', muter.token)).json().users.map((u: { _id: string }) => u._id)).toEqual([loud.id]);
    // A new post tells all its author's followers in one read of who is silenced: not the one who muted the author.
    await api('PATCH', `/follow/${loud.id}`, muter.token);
    await api('PATCH', `/follow/${loud.id}`, other.token);
    const { blogId: loudAgain } = await createBlog(t, loud, { title: 'Loud again' });
    const about = async (user: typeof muter) =>
      (await inbox(user)).notifications.filter((n: { blog: { blogId: string } | null }) => n.blog?.blogId === loudAgain);
    expect(await about(other)).toHaveLength(1);
    expect(await about(muter)).toEqual([]);

    await api('DELETE', `/users/${loud.id}/mute`, muter.token);
    expect(await feedIds(muter)).toContain(loudPost);
    // Old notifications come back; the ones a mute prevented were never made.
    expect((await inbox(muter)).notifications.map((n: { sender: { name: string } }) => n.sender.name)).toEqual(['Other', 'Loud']);
  });
});
