import { randomUUID } from 'node:crypto';
import { RATE_LIMITS, type RateLimitName, type RateLimitPolicy, rateLimitMessage } from '@inkwell/core';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../test/helpers';
import { API_PREFIX } from '../app';
import { RateGuard } from './rate-guard';
import { isApiWrite, registerRateLimits } from './rate-limit-hook';
import { createMemoryRateLimiter } from './rate-limiter';

/** Bodies the route schemas require, so a request reaches the rate limit (counted after validation). */
const BODIES: Record<string, object> = {
  'POST /api/v1/signup': { name: 'N', email: 'limit@example.com', password: 'quill-and-ink-42' },
  'POST /api/v1/signin': { email: 'limit@example.com', password: 'secret123' },
  'POST /api/v1/forgot-password': { email: 'limit@example.com' },
  'POST /api/v1/reset-password': { token: 'not-a-real-token', password: 'quill-and-ink-42' },
  'POST /api/v1/google-auth': { accessToken: 'x' },
  'POST /api/v1/uploads/image-by-url': { url: 'https://example.com/a.png' },
  'POST /api/v1/blogs/comment/:blogId': { comment: 'hello' },
  'POST /api/v1/comment/:parentCommentId/:blogId': { reply: 'hello' },
  'PATCH /api/v1/blogs/edit-comment/:commentId': { updatedCommentContent: 'hello' },
  'POST /api/v1/newsletter/subscribe': { email: 'limit@example.com' },
  'POST /api/v1/newsletter/confirm': { token: 'not-a-real-token' },
  'PUT /api/v1/digest-settings': { frequency: 'weekly' },
  'POST /api/v1/blogs/autosave': { title: 'Limit' },
  'PUT /api/v1/blogs/:id/autosave': { title: 'Limit', version: 0 },
  'POST /api/v1/blogs/:id/revisions/:revisionId/restore': {},
  'POST /api/v1/series': { title: 'Limit' },
  'PATCH /api/v1/series/:id': { title: 'Limit' },
  'PUT /api/v1/series/:id/posts': { blogIds: [] },
  'PUT /api/v1/blogs/:id/series': { seriesId: null },
};

/** The write routes of the route files (methods other than GET/HEAD under /api/v1), as printRoutes shows them. */
function writeMethodCount(printed: string): number {
  let n = 0;
  for (const m of printed.matchAll(/\(([A-Z, ]+)\)/g))
    n += m[1]!.split(', ').filter((x) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(x)).length;
  return n;
}

describe('rate limits on every write', () => {
  let t: TestApp;
  /** The same database with every limit at one hit per window. */
  let strict: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    strict = await createTestApp({ rateLimitFactor: 1e-9 }, t);
  });
  afterAll(async () => {
    await strict?.close();
    await t?.close();
  });

  it('every API write route names a policy of the core table', () => {
    const writes = strict.app.rateLimitedRoutes.filter((r) => isApiWrite({ method: r.method as 'POST', url: r.url }, API_PREFIX));
    expect(writes.length).toBe(writeMethodCount(strict.app.printRoutes({ commonPrefix: false })));
    expect(writes.length).toBeGreaterThanOrEqual(26);
    for (const r of writes) expect(Object.keys(RATE_LIMITS)).toContain(r.policy);
    const find = (method: string, url: string) => writes.find((r) => r.method === method && r.url === `${API_PREFIX}${url}`)?.policy;
    expect(find('POST', '/blogs/comment/:blogId')).toBe('comment');
    expect(find('POST', '/comment/:parentCommentId/:blogId')).toBe('comment');
    expect(find('PATCH', '/follow/:userId')).toBe('follow');
    // The mailed confirmation links change data through a GET: limited as well.
    const limited = (method: string, url: string) =>
      strict.app.rateLimitedRoutes.find((r) => r.method === method && r.url === `${API_PREFIX}${url}`)?.policy;
    expect(limited('GET', '/verify-email/:verificationToken')).toBe('confirm-link');
    expect(limited('GET', '/confirm-transfer/:action/:token')).toBe('confirm-link');
    // Comments, replies and comment edits with a link also count the new-account link limit.
    const alsoLinks = writes.filter((r) => r.also === 'comment-link').map((r) => `${r.method} ${r.url.slice(API_PREFIX.length)}`);
    expect(alsoLinks.sort()).toEqual(
      ['PATCH /blogs/edit-comment/:commentId', 'POST /blogs/comment/:blogId', 'POST /comment/:parentCommentId/:blogId'].sort(),
    );
  });

  it('a write route without config.rateLimit stops the app from starting', async () => {
    const app = Fastify();
    registerRateLimits(app, new RateGuard(createMemoryRateLimiter()), API_PREFIX);
    const start = async () => {
      await app.register(
        async (api) => {
          api.get('/read', async () => ({}));
          api.post('/forgotten', async () => ({}));
        },
        { prefix: API_PREFIX },
      );
      await app.ready();
    };
    await expect(start()).rejects.toThrow('POST /api/v1/forgotten has no config.rateLimit');
  });

  it('each write route answers the request over its limit 429 with Retry-After and a message', async () => {
    let address = 1;
    // A limited GET has its HEAD twin (Fastify's exposeHeadRoutes), with the same count and no body to read.
    for (const route of strict.app.rateLimitedRoutes.filter((r) => r.method !== 'HEAD')) {
      const user: TestUser = await createUser(t);
      const url = route.url.replace(/:(\w+)/g, (_, name: string) =>
        name === 'id' && route.url.includes('/users/') ? user.id : randomUUID(),
      );
      const payload = BODIES[`${route.method} ${route.url}`];
      const remoteAddress = `10.20.${Math.floor(address / 250)}.${(address++ % 250) + 1}`;
      const send = (token: string) =>
        strict.app.inject({ method: route.method as 'POST', url, payload, headers: bearer(token), remoteAddress });
      const first = await send(user.token);
      expect(first.statusCode, `${route.method} ${route.url}: ${first.body}`).not.toBe(429);
      // Signing out everywhere revokes the token it was sent with: the next try comes from a new sign-in.
      const token =
        route.policy === 'signout-everywhere'
          ? (await t.app.inject({ method: 'POST', url: '/api/v1/signin', payload: { email: user.email, password: user.password } })).json()
              .user.token
          : user.token;
      const second = await send(token);
      expect(second.statusCode, `${route.method} ${route.url}: ${second.body}`).toBe(429);
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
      // Test accounts are minutes old: a policy with a new-account count answers with that tier's reason.
      expect(second.json()).toEqual({
        success: false,
        message: rateLimitMessage(route.policy, Number(second.headers['retry-after']), { tier: 'new-account', scope: 'perUser', count: 1 }),
      });
    }
  });

  it('counts per account and per IP address', async () => {
    const { blogId } = await createBlog(t, await createUser(t));
    const [a, b, c] = [await createUser(t), await createUser(t), await createUser(t)];
    const comment = (u: TestUser, remoteAddress: string) =>
      strict.app.inject({
        method: 'POST',
        url: `/api/v1/blogs/comment/${blogId}`,
        payload: { comment: 'hi' },
        headers: bearer(u.token),
        remoteAddress,
      });
    expect((await comment(a, '10.30.0.1')).statusCode).toBe(201);
    // Another account on the same address: the address's count is spent.
    expect((await comment(b, '10.30.0.1')).statusCode).toBe(429);
    // The first account from another address: its own count is spent.
    expect((await comment(a, '10.30.0.2')).statusCode).toBe(429);
    // Neither count is global: someone else elsewhere still comments.
    expect((await comment(c, '10.30.0.3')).statusCode).toBe(201);
  });
});

describe('the comment limit at RATE_LIMIT_FACTOR 1', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitFactor: 1 });
  });
  afterAll(async () => t?.close());

  it('takes 9 comments and replies per 30 s from one account; the 10th changes nothing and notifies nobody', async () => {
    const author = await createUser(t);
    const spammer = await createUser(t);
    const { blogId } = await createBlog(t, author);
    const codes: number[] = [];
    let parent = '';
    let last: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    for (let i = 0; i < 10; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: i % 2 && parent ? `/api/v1/comment/${parent}/${blogId}` : `/api/v1/blogs/comment/${blogId}`,
        payload: i % 2 && parent ? { reply: `reply ${i}` } : { comment: `comment ${i}` },
        headers: bearer(spammer.token),
      });
      codes.push(last.statusCode);
      if (!parent && last.statusCode === 201) parent = last.json().newComment._id;
    }
    expect(codes).toEqual([...Array(9).fill(201), 429]);
    const retryAfter = Number(last!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(last!.json().message).toBe(
      `You are commenting too quickly. Please try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
    );
    const comments = await t.app.inject({ url: `/api/v1/blogs/${blogId}/comments?limit=50` });
    expect(comments.json().total).toBe(9);
    const notes = await t.app.inject({ url: '/api/v1/notifications?limit=50', headers: bearer(author.token) });
    expect(notes.json().notifications.filter((n: { type: string }) => n.type === 'comment')).toHaveLength(9);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('limits shared by two instances through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ redisUrl: process.env.TEST_REDIS_URL, rateLimitFactor: 1 });
    b = await createTestApp({ redisUrl: process.env.TEST_REDIS_URL, rateLimitFactor: 1 }, a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('counts comments sent to either instance against one limit', async () => {
    const author = await createUser(a);
    const { blogId } = await createBlog(a, author);
    const codes: number[] = [];
    let retryAfter = 0;
    for (let i = 0; i < 10; i++) {
      const app = i % 2 ? b.app : a.app;
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/blogs/comment/${blogId}`,
        payload: { comment: `comment ${i}` },
        headers: bearer(author.token),
      });
      codes.push(res.statusCode);
      retryAfter = Number(res.headers['retry-after'] ?? 0);
    }
    expect(codes).toEqual([...Array(9).fill(201), 429]);
    // The window started with the first comment and expires in Redis: at most 30 s away.
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(Number(await a.app.services.redis!.pttl(`${a.config.redisPrefix}rl:comment:u:${author.id}`))).toBeGreaterThan(0);
  });
});

const policyNames = Object.keys(RATE_LIMITS) as RateLimitName[];
it('has a window and at least one count for every policy', () => {
  for (const name of policyNames) {
    const p: RateLimitPolicy = RATE_LIMITS[name];
    expect(p.windowSeconds, name).toBeGreaterThan(0);
    // A policy may count only in a tier (e.g. 'comment-link' for new accounts).
    const counts = [p, ...Object.values(p.tiers ?? {})];
    expect(
      counts.reduce((n, c) => n + (c.perUser ?? 0) + (c.perIp ?? 0) + (c.perKey ?? 0), 0),
      name,
    ).toBeGreaterThan(0);
  }
});
