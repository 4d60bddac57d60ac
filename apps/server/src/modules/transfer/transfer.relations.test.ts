import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { userRow } from '../users/test-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, user: TestUser, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(user.token), payload });
const ids = (list: { _id: string }[]) => list.map((u) => u._id).sort();
const relations = async (user: TestUser, kind: 'blocked' | 'muted') => ids((await api('GET', `/blocks?kind=${kind}`, user)).json().users);
const follows = async (follower: string, following: string) =>
  (
    await t.database.db
      .selectFrom('follows')
      .select('follower_id')
      .where('follower_id', '=', follower)
      .where('following_id', '=', following)
      .execute()
  ).length === 1;

/** Requests a transfer from `from` to `to` and accepts it through the mailed link. */
async function transfer(from: TestUser, to: TestUser) {
  const req = await api('POST', '/transfer-account', from, { newOwnerEmail: to.email, currentPassword: from.password });
  expect(req.statusCode, req.body).toBe(200);
  const row = await t.database.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', to.email)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const accept = row.text_body.match(/https?:\/\/\S+\/confirm-transfer\/accept\/\S+/)![0];
  const res = await t.app.inject({ url: `/api/v1${new URL(accept).pathname}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

describe('account transfer with series, autosaves, blocks and mutes (issue 16 gap)', () => {
  it('moves the series in order and the unsaved work on the moved posts', async () => {
    const from = await createUser(t, { name: 'Old account' });
    const to = await createUser(t, { name: 'New account' });
    const one = await createBlog(t, from, { title: 'Part one' });
    const two = await createBlog(t, from, { title: 'Part two' });
    const series = (await api('POST', '/series', from, { title: 'Moving series' })).json().series;
    expect((await api('PUT', `/series/${series.id}/posts`, from, { blogIds: [one.blogId, two.blogId] })).statusCode).toBe(200);
    const pending = await api('PUT', `/blogs/${two.blogId}/autosave`, from, {
      title: 'Part two, better',
      description: 'D',
      tags: [],
      content: { blocks: [{ type: 'paragraph', data: { text: 'words not yet published' } }] },
      version: 1,
    });
    expect(pending.statusCode, pending.body).toBe(200);

    expect(await transfer(from, to)).toMatchObject({ transferredBlogs: 2 });

    const mine = (await api('GET', '/series/mine', to)).json().series;
    expect(mine).toEqual([
      expect.objectContaining({
        id: series.id,
        title: 'Moving series',
        authorId: to.id,
        posts: [expect.objectContaining({ blogId: one.blogId, part: 1 }), expect.objectContaining({ blogId: two.blogId, part: 2 })],
      }),
    ]);
    const page = (await t.app.inject({ url: `/api/v1/blogs/${two.blogId}` })).json().blog;
    expect(page.series).toMatchObject({ title: 'Moving series', part: 2, total: 2 });
    // The new owner may change the series (it is theirs now).
    expect((await api('PUT', `/series/${series.id}/posts`, to, { blogIds: [two.blogId, one.blogId] })).statusCode).toBe(200);
    // The pending text is the new owner's to publish.
    const autosave = (await api('GET', `/blogs/${two.blogId}/autosave`, to)).json();
    expect(autosave.autosave).toMatchObject({ title: 'Part two, better' });
  });

  it('carries blocks and mutes both ways, drops the rows between the two, and lets no blocked follower over', async () => {
    const from = await createUser(t, { name: 'Old account' });
    const to = await createUser(t, { name: 'New account' });
    const named = (name: string) => createUser(t, { name });
    const [harasser, blocker, muted, muter, fan, shunned] = await Promise.all([
      named('Harasser'),
      named('Blocker'),
      named('Muted'),
      named('Muter'),
      named('Fan'),
      named('Shunned'),
    ]);
    const post = await createBlog(t, from, { title: 'Kept safe' });
    // Before: the harasser and the blocker follow the recipient; the fan and the shunned follow the sender.
    for (const [a, b] of [
      [harasser, to],
      [blocker, to],
      [to, blocker],
      [fan, from],
      [shunned, from],
    ] as const)
      expect((await api('PATCH', `/follow/${b.id}`, a)).statusCode).toBe(200);
    expect((await api('POST', `/users/${shunned.id}/block`, to)).statusCode).toBe(200);
    expect((await api('POST', `/users/${harasser.id}/block`, from)).statusCode).toBe(200);
    expect((await api('POST', `/users/${from.id}/block`, blocker)).statusCode).toBe(200);
    expect((await api('POST', `/users/${muted.id}/mute`, from)).statusCode).toBe(200);
    expect((await api('POST', `/users/${from.id}/mute`, muter)).statusCode).toBe(200);
    // Rows between the two accounts mean nothing once they are one.
    expect((await api('POST', `/users/${to.id}/mute`, from)).statusCode).toBe(200);
    expect((await api('POST', `/users/${from.id}/mute`, to)).statusCode).toBe(200);

    // The shunned follower is blocked by the recipient: not moved over. The fan is.
    expect(await transfer(from, to)).toMatchObject({ transferredBlogs: 1, transferredFollowers: 1 });

    expect(await relations(to, 'blocked')).toEqual([harasser.id, shunned.id].sort());
    expect(await relations(to, 'muted')).toEqual([muted.id]);
    expect(await relations(blocker, 'blocked')).toEqual([to.id]);
    expect(await relations(muter, 'muted')).toEqual([to.id]);
    const leftovers = await t.database.db
      .selectFrom('user_blocks')
      .select('blocker_id')
      .where((eb) => eb.or([eb('blocker_id', '=', from.id), eb('blocked_id', '=', from.id)]))
      .execute();
    expect(leftovers).toEqual([]);

    // Blocks end follows both ways, with the counters.
    expect(await follows(harasser.id, to.id)).toBe(false);
    expect(await follows(blocker.id, to.id)).toBe(false);
    expect(await follows(to.id, blocker.id)).toBe(false);
    expect(await follows(fan.id, to.id)).toBe(true);
    expect(await follows(shunned.id, to.id)).toBe(false);
    expect(await userRow(t, to.id)).toMatchObject({ follower_count: 1, following_count: 0 });
    expect(await userRow(t, harasser.id)).toMatchObject({ following_count: 0 });
    expect(await userRow(t, blocker.id)).toMatchObject({ following_count: 0, follower_count: 0 });

    // And they hold on the moved post: the harasser cannot comment on it, the recipient cannot follow the blocker.
    const comment = await api('POST', `/blogs/comment/${post.blogId}`, harasser, { comment: 'back again' });
    expect([comment.statusCode, comment.json().message]).toEqual([403, 'You cannot comment on this post']);
    expect((await api('PATCH', `/follow/${blocker.id}`, to)).statusCode).toBe(403);
    // The muted author's posts stay out of the new owner's home feed.
    const mutedPost = await createBlog(t, muted, { title: 'Muted words' });
    const feed = (await api('GET', '/blogs?limit=50', to)).json().blogs.map((b: { blogId: string }) => b.blogId);
    expect(feed).not.toContain(mutedPost.blogId);
  });
  it("gives a recipient never in a block the sender's relations flag, so a block carried over is enforced on the moved posts", async () => {
    const [from, to, harasser] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const { blogId } = await createBlog(t, from, { title: 'Moved with its block' });
    expect((await api('POST', `/users/${harasser.id}/block`, from)).statusCode).toBe(200);
    expect(await userRow(t, to.id)).toMatchObject({ relations: 0 });
    await transfer(from, to);
    expect(await userRow(t, to.id)).toMatchObject({ relations: 1 });
    // The moved post is the recipient's now, and the block came with it.
    expect((await api('POST', `/blogs/like/${blogId}`, harasser)).statusCode).toBe(403);
    expect((await api('POST', `/blogs/comment/${blogId}`, harasser, { comment: 'Still here' })).statusCode).toBe(403);
    expect((await api('PATCH', `/follow/${to.id}`, harasser)).statusCode).toBe(403);
  });
});
