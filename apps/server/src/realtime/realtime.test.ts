import { REALTIME_LIMITS } from '@inkwell/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { bearer, createTestApp, createUser, deadPort, type TestApp, type TestUser } from '../../test/helpers';
import { waitFor } from '../../test/smtp';
import { client, listen } from '../../test/sockets';

const settle = () => new Promise((r) => setTimeout(r, 300));

describe('realtime notifications on one instance', () => {
  let t: TestApp;
  let url: string;
  let author: TestUser;
  let fan: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t.app);
    author = await createUser(t);
    fan = await createUser(t);
  });
  afterAll(async () => t.close());

  it('delivers each event once to every open tab of the recipient, and nothing to a spoofed register', async () => {
    const tab1 = await client(url, author.token, author.id);
    const tab2 = await client(url, author.token, author.id);
    const spy = await client(url, fan.token, author.id);
    const { blogId } = await createBlog(t, author);
    await t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(fan.token) });
    await waitFor(() => tab1.notifications.length && tab2.notifications.length && tab1.counts.length && tab2.counts.length);
    await settle();
    for (const tab of [tab1, tab2]) {
      expect(tab.notifications.map((n) => n.type)).toEqual(['like']);
      expect(tab.counts).toEqual([1]);
    }
    expect(spy.notifications).toEqual([]);
    expect(spy.counts).toEqual([]);

    // Marking read elsewhere updates the count in every tab.
    await t.app.inject({ method: 'PATCH', url: '/api/v1/notifications/mark-read', headers: bearer(author.token) });
    await waitFor(() => tab1.counts.length === 2 && tab2.counts.length === 2);
    expect(tab1.counts.at(-1)).toBe(0);
  });

  it('tells open tabs the count that a deleted comment or post took unread notices from', async () => {
    const [writer, commenter, replier] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const { blogId } = await createBlog(t, writer);
    const post = (url: string, who: TestUser, payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: bearer(who.token), payload });
    const top = (await post(`/blogs/comment/${blogId}`, commenter, { comment: 'Top' })).json().newComment;
    await post(`/comment/${top._id}/${blogId}`, replier, { reply: 'Reply' });
    await t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(commenter.token) });
    const [writerTab, commenterTab] = [await client(url, writer.token, writer.id), await client(url, commenter.token, commenter.id)];
    await settle();
    // The writer has a comment, a reply and a like unread; the commenter the reply to their comment.
    const remove = (path: string, who: TestUser) => t.app.inject({ method: 'DELETE', url: `/api/v1${path}`, headers: bearer(who.token) });
    expect((await remove(`/blogs/comment/${top._id}`, commenter)).statusCode).toBe(200);
    await waitFor(() => writerTab.counts.length && commenterTab.counts.length);
    expect([writerTab.counts, commenterTab.counts]).toEqual([[1], [0]]);
    expect((await remove(`/blogs/${blogId}`, writer)).statusCode).toBe(200);
    await waitFor(() => writerTab.counts.length === 2);
    expect(writerTab.counts).toEqual([1, 0]);
  });

  it('tells open tabs the count that a deleted account, or a suspension of its sender, took notices from', async () => {
    const [writer, leaver, replier, other] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t)]);
    const send = (method: 'POST' | 'DELETE', path: string, who: TestUser, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${path}`, headers: bearer(who.token), ...(payload ? { payload } : {}) });
    const { blogId } = await createBlog(t, writer);
    const leaversPost = await createBlog(t, leaver);
    // The writer: the leaver's like and comment, and a reply by someone else below that comment.
    await send('POST', `/blogs/like/${blogId}`, leaver);
    const top = (await send('POST', `/blogs/comment/${blogId}`, leaver, { comment: 'Hi' })).json().newComment;
    await send('POST', `/comment/${top._id}/${blogId}`, replier, { reply: 'Hello' });
    // The replier: a reply from someone else, on the leaver's post.
    const theirs = (await send('POST', `/blogs/comment/${leaversPost.blogId}`, replier, { comment: 'Nice' })).json().newComment;
    await send('POST', `/comment/${theirs._id}/${leaversPost.blogId}`, other, { reply: 'Agreed' });
    const count = async (who: TestUser) =>
      (await t.app.inject({ url: '/api/v1/notifications?limit=1', headers: bearer(who.token) })).json().unreadCount;
    expect([await count(writer), await count(replier)]).toEqual([3, 1]);

    // Suspending the leaver takes their two notices from the writer's count; lifting it brings them back.
    const writerTab = await client(url, writer.token, writer.id);
    const replierTab = await client(url, replier.token, replier.id);
    await settle();
    const { moderation } = t.app.services;
    await moderation.setSuspended(null, leaver.id, true, 'Spam');
    await waitFor(() => writerTab.counts.length === 1);
    await moderation.setSuspended(null, leaver.id, false, 'Appeal');
    await waitFor(() => writerTab.counts.length === 2);
    expect(writerTab.counts).toEqual([1, 3]);

    // Deleting the account takes everything it sent and everything about its posts and comments.
    const leaverToken = (
      await t.app.inject({ method: 'POST', url: '/api/v1/signin', payload: { email: leaver.email, password: leaver.password } })
    ).json().user.token;
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${leaver.id}`,
      headers: bearer(leaverToken),
      payload: { currentPassword: leaver.password },
    });
    expect(gone.statusCode).toBe(200);
    await waitFor(() => writerTab.counts.length === 3 && replierTab.counts.length === 1);
    expect([writerTab.counts.at(-1), replierTab.counts]).toEqual([0, [0]]);
    expect([await count(writer), await count(replier)]).toEqual([0, 0]);
  });

  it('refuses a handshake without a valid token', async () => {
    await expect(client(url, null)).rejects.toThrow('unauthorized');
    await expect(client(url, 'forged.token.value')).rejects.toThrow('unauthorized');
  });

  it('drops the sockets of revoked tokens', async () => {
    const u = await createUser(t);
    const tab = await client(url, u.token, u.id);
    const gone = new Promise((resolve) => tab.socket.once('disconnect', resolve));
    await t.app.inject({ method: 'POST', url: '/api/v1/signout-everywhere', headers: bearer(u.token) });
    await gone;
    await expect(client(url, u.token)).rejects.toThrow('unauthorized');
  });
});

describe('realtime sockets are bounded', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ realtimeRecheckMs: 200 });
    url = await listen(t.app);
  });
  afterAll(async () => t.close());

  it('drops a socket that floods messages (each register reads the database), and keeps one that does not', async () => {
    const u = await createUser(t);
    const calm = await client(url, u.token, u.id);
    const flood = await client(url, u.token, u.id);
    for (let i = 0; i < REALTIME_LIMITS.messagesPerMinute + 10; i++) flood.socket.emit('register', u.id);
    expect(await flood.disconnected).toBe('io server disconnect');
    await settle();
    expect(calm.socket.connected).toBe(true);
  });

  it(`refuses a user's socket past ${REALTIME_LIMITS.socketsPerUser} on one instance; closing one makes room`, async () => {
    const u = await createUser(t);
    const open = await Promise.all(Array.from({ length: REALTIME_LIMITS.socketsPerUser }, () => client(url, u.token)));
    await expect(client(url, u.token)).rejects.toThrow('too many connections');
    // Another user is not affected.
    const other = await createUser(t);
    await client(url, other.token, other.id);
    open[0]!.socket.disconnect();
    await settle();
    const again = await client(url, u.token, u.id);
    expect(again.socket.connected).toBe(true);
  });

  it('ends the sockets of a token revoked where this instance could not hear it (an admin command without Redis)', async () => {
    const u = await createUser(t);
    const tab = await client(url, u.token, u.id);
    const bystander = await client(url, (await createUser(t)).token);
    // What `npm run admin -- suspend` does from its own process: the token version moves, no event reaches this one.
    await t.database.db.updateTable('users').set({ token_version: 99 }).where('id', '=', u.id).execute();
    expect(await tab.disconnected).toBe('io server disconnect');
    await settle();
    expect(bystander.socket.connected).toBe(true);
  });
});

if (!process.env.TEST_REDIS_URL)
  console.warn('SKIPPED: TEST_REDIS_URL is not set, so the two-instance realtime test through Redis does not run (CI sets it).');

describe.skipIf(!process.env.TEST_REDIS_URL)('realtime across two instances through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let urlB: string;
  beforeAll(async () => {
    a = await createTestApp({ redisUrl: process.env.TEST_REDIS_URL });
    b = await createTestApp({ redisUrl: process.env.TEST_REDIS_URL }, a);
    urlB = await listen(b.app);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a like handled by instance A reaches the author socket on instance B', async () => {
    const author = await createUser(a);
    const fan = await createUser(a);
    const tab = await client(urlB, author.token, author.id);
    const { blogId } = await createBlog(a, author);
    const res = await a.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(fan.token) });
    expect(res.statusCode).toBe(200);
    await waitFor(() => tab.notifications.length && tab.counts.length);
    expect(tab.notifications[0]!.type).toBe('like');
    expect(tab.counts).toEqual([1]);
  });

  it("an instance that shuts down closes only its own sockets, not the other instances'", async () => {
    const author = await createUser(a);
    const tab = await client(urlB, author.token, author.id);
    const leaving = await createTestApp({ redisUrl: process.env.TEST_REDIS_URL }, a);
    await settle(); // its Redis clients connected, so a broadcast from it would reach B
    await leaving.close();
    await settle();
    expect(tab.socket.connected).toBe(true);
  });

  it('an instance closed while its Redis commands are in flight leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      // Closing at once catches the adapter's subscribe, publish and unsubscribe calls mid-way.
      for (let i = 0; i < 10; i++) await (await createTestApp({ redisUrl: process.env.TEST_REDIS_URL }, a)).close();
      await settle();
    } finally {
      process.off('unhandledRejection', record);
    }
    expect(unhandled).toEqual([]);
  });
});

describe('realtime while the configured Redis is unreachable', () => {
  it('a broadcast the adapter cannot publish ends nothing (no unhandled rejection)', async () => {
    const t = await createTestApp({ redisUrl: `redis://127.0.0.1:${await deadPort()}` });
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      // A revocation's disconnect goes to every instance through the adapter's un-awaited PUBLISH,
      // which fails once its retries (maxRetriesPerRequest: 2) are spent.
      t.app.realtime.disconnectUser('00000000-0000-4000-8000-000000000000');
      t.app.realtime.io.to('nobody').emit('unreadCountUpdate', 1);
      await new Promise((r) => setTimeout(r, 2000));
    } finally {
      process.off('unhandledRejection', record);
      await t.close();
    }
    expect(unhandled).toEqual([]);
  });
});
