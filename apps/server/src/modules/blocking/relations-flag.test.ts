import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

/**
 * users.relations (migration 0024): a like, comment or follow asks about blocks and mutes only
 * when one could stand, and a block or mute made since is always seen.
 */
describe('relations flag', () => {
  let t: TestApp;
  const queries: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({}, undefined, (q: CompiledQuery) => queries.push(q.sql));
  });
  afterAll(async () => t.close());

  const api = (method: 'POST' | 'PATCH', url: string, user: TestUser, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(user.token), payload });
  const relationQueries = () => queries.filter((sql) => /user_blocks|user_mutes/.test(sql));
  const flag = async (user: TestUser) => (await t.app.services.repos.users.findById(user.id))!.relations;

  it('skips the block and mute checks between people no block or mute ever involved', async () => {
    const author = await createUser(t);
    const reader = await createUser(t);
    const { blogId } = await createBlog(t, author);
    queries.length = 0;
    expect((await api('POST', `/blogs/like/${blogId}`, reader)).statusCode).toBe(200);
    expect((await api('POST', `/blogs/comment/${blogId}`, reader, { comment: 'Hello' })).statusCode).toBe(201);
    expect((await api('PATCH', `/follow/${author.id}`, reader)).statusCode).toBe(200);
    expect(relationQueries()).toEqual([]);
    // Each of them reached the author.
    const inbox = await t.app.inject({ url: '/api/v1/notifications?limit=10', headers: bearer(author.token) });
    expect(
      inbox
        .json()
        .notifications.map((n: { type: string }) => n.type)
        .sort(),
    ).toEqual(['comment', 'follow', 'like']);
  });

  it('checks once either person was in a block or mute, and refuses what a block forbids', async () => {
    const author = await createUser(t);
    const reader = await createUser(t);
    const stranger = await createUser(t);
    const { blogId } = await createBlog(t, author);
    expect(await flag(author)).toBe(0);
    await api('POST', `/users/${stranger.id}/mute`, author);
    expect([await flag(author), await flag(stranger), await flag(reader)]).toEqual([1, 1, 0]);
    queries.length = 0;
    expect((await api('POST', `/blogs/like/${blogId}`, reader)).statusCode).toBe(200);
    expect(relationQueries().length).toBeGreaterThan(0);

    await api('POST', `/users/${reader.id}/block`, author);
    expect(await flag(reader)).toBe(1);
    const { blogId: second } = await createBlog(t, author);
    expect((await api('POST', `/blogs/like/${second}`, reader)).statusCode).toBe(403);
    expect((await api('POST', `/blogs/comment/${second}`, reader, { comment: 'Hi' })).statusCode).toBe(403);
    expect((await api('PATCH', `/follow/${author.id}`, reader)).statusCode).toBe(403);
  });

  it('a mute by the recipient silences the notification even though the sender was never involved before', async () => {
    const author = await createUser(t);
    const reader = await createUser(t);
    const { blogId } = await createBlog(t, author);
    await api('POST', `/users/${reader.id}/mute`, author);
    expect((await api('POST', `/blogs/like/${blogId}`, reader)).statusCode).toBe(200);
    const inbox = await t.app.inject({ url: '/api/v1/notifications?limit=10', headers: bearer(author.token) });
    expect(inbox.json().notifications).toEqual([]);
  });
});
