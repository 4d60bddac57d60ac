import type { RouteOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { CompiledQuery } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBlog, postComment } from '../../test/blogs';
import { bearer, createTestApp, createUser, ownConnectionInstance, type TestApp, type TestUser } from '../../test/helpers';
import { waitFor } from '../../test/smtp';
import { WriteSignal } from '../db/write-watch';
import { PublicDataChanges } from './public-data';
import { followersTag } from './public-tags';
import { ANY_CHANGE } from './tagged-store';

/**
 * A route that claims its answer is the same for everyone ('anyone') yet reads the viewer and
 * answers them with something of their own: the bug the cache must not spread.
 */
function viewerReadingSearch(route: RouteOptions): void {
  if (route.url !== '/api/v1/search-blogs' || route.method !== 'GET') return;
  const handler = route.handler;
  route.handler = async function (this: unknown, request, reply) {
    await request.server.identify(request);
    const body = (await handler.call(this as never, request, reply)) as { blogs: unknown[] };
    return request.user ? { ...body, blogs: [] } : body;
  };
}

/** How long list pages may show old counts in this app (RESPONSE_CACHE_COUNTS_LAG_MS). */
const COUNTS_LAG_MS = 400;

describe('public cache: what a write drops', () => {
  let t: TestApp;
  let author: TestUser;
  let reader: TestUser;
  let other: TestUser;
  let liked: string;
  let untouched: string;
  const queries: CompiledQuery[] = [];

  beforeAll(async () => {
    t = await createTestApp({ responseCacheCountsLagMs: COUNTS_LAG_MS }, undefined, (q) => queries.push(q), {
      onRoute: viewerReadingSearch,
    });
    author = await createUser(t, { name: 'Tag Author' });
    reader = await createUser(t, { name: 'Tag Reader' });
    other = await createUser(t, { name: 'Tag Bystander' });
    liked = (await createBlog(t, author, { title: 'The liked one' })).blogId;
    untouched = (await createBlog(t, author, { title: 'The quiet one' })).blogId;
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  /** Reads url and says whether it was answered from memory (no database query). */
  const cached = async (url: string) => {
    queries.length = 0;
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    return { fromCache: queries.length === 0, body: res.json() };
  };
  const warm = async (...urls: string[]) => {
    for (const url of urls) await get(url);
    for (const url of urls) expect((await cached(url)).fromCache).toBe(true);
  };

  test('a like drops its post’s page and the liker’s profile at once, the lists showing it within the counts lag; other entries stay', async () => {
    const page = `/api/v1/blogs/${liked}`;
    const quiet = `/api/v1/blogs/${untouched}`;
    const feed = '/api/v1/blogs?limit=10&page=1';
    // (search-blogs is made to read the viewer in this file, so the author's tab stands for the other lists)
    const tab = `/api/v1/users/${author.username}/blogs`;
    const readerProfile = `/api/v1/users/${reader.username}`;
    const bystander = `/api/v1/users/${other.username}`;
    await warm(page, quiet, feed, tab, readerProfile, bystander);
    const likeCountIn = (body: { blogs: { blogId: string; likeCount: number }[] }) => body.blogs.find((b) => b.blogId === liked)!.likeCount;
    expect(likeCountIn((await cached(tab)).body)).toBe(0);
    const like = await t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${liked}`, headers: bearer(reader.token) });
    expect(like.statusCode).toBe(200);
    const likedAt = Date.now();

    // The page is kept and shows the counts the like left (lib/live-counts.ts learn): no query.
    const pageNow = await cached(page);
    expect(pageNow.fromCache).toBe(true);
    expect(pageNow.body.blog.likeCount).toBe(1);
    const profileNow = await cached(readerProfile);
    expect(profileNow.fromCache).toBe(false);
    expect(profileNow.body.user.likedCount).toBe(1);
    // Within the lag the lists may still be the copies from before the like (counts only).
    const feedSoon = await cached(feed);
    if (Date.now() - likedAt < COUNTS_LAG_MS) expect(feedSoon.fromCache).toBe(true);
    // After it, they show the like, recomputed once.
    await new Promise((resolve) => setTimeout(resolve, COUNTS_LAG_MS + 50 - (Date.now() - likedAt)));
    for (const list of [feed, tab]) {
      const now = await cached(list);
      expect(now.fromCache).toBe(false);
      expect(likeCountIn(now.body)).toBe(1);
      expect((await cached(list)).fromCache).toBe(true);
    }
    expect((await cached(quiet)).fromCache).toBe(true);
    expect((await cached(bystander)).fromCache).toBe(true);
  });

  test('a list computed before a like is kept no longer than the counts lag', async () => {
    const feed = '/api/v1/blogs?limit=10&page=2';
    const before = t.app.publicCache!.generation;
    await get(feed); // computes and stores it
    const like = await t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${untouched}`, headers: bearer(other.token) });
    expect(like.statusCode).toBe(200);
    const likedAt = Date.now();
    // Stored with the generation from before the like: allowed, but only until the lag ends.
    expect(
      t.app.publicCache!.set(feed, before, { headers: {}, etag: 'W/"old"', body: '{"old":true}' }, ['lists', `counts:${untouched}`]),
    ).toBeDefined();
    if (Date.now() - likedAt < COUNTS_LAG_MS) expect((await cached(feed)).body).toEqual({ old: true });
    await new Promise((resolve) => setTimeout(resolve, COUNTS_LAG_MS + 50 - (Date.now() - likedAt)));
    expect((await cached(feed)).fromCache).toBe(false);
  });

  test('a comment goes into its post’s cached comments (a reply drops them), not another post’s', async () => {
    const comments = `/api/v1/blogs/${liked}/comments`;
    const quietComments = `/api/v1/blogs/${untouched}/comments`;
    const quiet = `/api/v1/blogs/${untouched}`;
    await warm(comments, quietComments, quiet, `/api/v1/blogs/${liked}`);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/blogs/comment/${liked}`,
      headers: bearer(reader.token),
      payload: { comment: 'Tagged comment' },
    });
    expect(res.statusCode).toBe(201);
    // Updated in place by the write (lib/response-cache.ts touch): the next reader reads nothing.
    const now = await cached(comments);
    expect(now.fromCache).toBe(true);
    expect(now.body.comments.map((c: { comment: string }) => c.comment)).toContain('Tagged comment');
    expect((await cached(`/api/v1/blogs/${liked}`)).body.blog.commentCount).toBe(1);
    expect((await cached(quietComments)).fromCache).toBe(true);
    expect((await cached(quiet)).fromCache).toBe(true);
    await postComment(t, reader, liked, 'Tagged reply', res.json().newComment._id);
    const replied = await cached(comments);
    expect(replied.fromCache).toBe(false);
    expect(replied.body.comments[0].replies.map((c: { comment: string }) => c.comment)).toEqual(['Tagged reply']);
    expect((await cached(quietComments)).fromCache).toBe(true);
  });

  test('reading a thread with replies drops nothing (its replies are read, not written)', async () => {
    // The replies' query is partly raw SQL with a recursive WITH; a statement that starts with WITH
    // is taken for a write (PostgreSQL's one-statement writes), which would empty the cache on
    // every read of a thread with replies.
    const top = await t.app.inject({
      method: 'POST',
      url: `/api/v1/blogs/comment/${untouched}`,
      headers: bearer(reader.token),
      payload: { comment: 'Threaded comment' },
    });
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/v1/comment/${top.json().newComment._id}/${untouched}`,
      headers: bearer(other.token),
      payload: { reply: 'A reply below it' },
    });
    expect(reply.statusCode).toBe(201);
    const page = `/api/v1/blogs/${liked}`;
    const feed = '/api/v1/blogs?limit=10&page=1';
    await warm(page, feed);
    const thread = await cached(`/api/v1/blogs/${untouched}/comments`);
    expect(thread.fromCache).toBe(false);
    expect(thread.body.comments[0].replies.map((r: { comment: string }) => r.comment)).toEqual(['A reply below it']);
    expect((await cached(page)).fromCache).toBe(true);
    expect((await cached(feed)).fromCache).toBe(true);
  });

  test('a follow keeps the followed profile with its count put in, drops the follower’s profile and the followers tab, nothing else', async () => {
    const followed = `/api/v1/users/${author.username}`;
    // The same profile by another spelling of its URL: a separate entry, the same counts.
    const followedAgain = `/api/v1/users/@${author.username.toUpperCase()}`;
    const follower = `/api/v1/users/${other.username}`;
    const followers = `/api/v1/users/${author.username}/followers`;
    const following = `/api/v1/users/${author.username}/following`;
    const bystander = `/api/v1/users/${reader.username}`;
    const page = `/api/v1/blogs/${untouched}`;
    await warm(followed, followedAgain, follower, followers, following, bystander, page);
    const res = await t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${author.id}`, headers: bearer(other.token) });
    expect(res.statusCode).toBe(200);

    queries.length = 0;
    const kept = await get(followed);
    // Not even the count is read: the follow's statement left it (lib/live-counts.ts learn).
    expect(queries).toHaveLength(0);
    expect(kept.json().user.followerCount).toBe(1);
    const again = await cached(followedAgain);
    expect(again).toMatchObject({ fromCache: true, body: { user: { followerCount: 1 } } });
    expect((await cached(follower)).body.user.followingCount).toBe(1);
    expect((await cached(followers)).body.users.map((u: { _id: string }) => u._id)).toEqual([other.id]);
    for (const url of [following, bystander, page]) expect((await cached(url)).fromCache).toBe(true);
    // A follow heard from another instance (its count unknown here): the count alone is read.
    t.app.services.publicData.changed([followersTag(author.username)]);
    queries.length = 0;
    expect((await get(followed)).json().user.followerCount).toBe(1);
    expect(queries.map((q) => q.sql)).toEqual([expect.stringMatching(/select "follower_count" from "users" where "username" = /)]);

    // What the kept entry answers is what the full path answers, ETag included.
    t.app.publicCache!.invalidate();
    const computed = await get(followed);
    expect([kept.body, kept.headers.etag]).toEqual([computed.body, computed.headers.etag]);

    const undo = await t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${author.id}`, headers: bearer(other.token) });
    expect(undo.json().following).toBe(false);
    expect((await get(followed)).json().user.followerCount).toBe(0);
    expect((await cached(followers)).body.users).toEqual([]);
  });

  test('a new post drops the lists and its author’s profile, not other posts’ pages', async () => {
    const feed = '/api/v1/blogs?limit=10&page=1';
    const tabs = `/api/v1/users/${author.username}/blogs`;
    const page = `/api/v1/blogs/${untouched}`;
    await warm(feed, tabs, page);
    const { blogId } = await createBlog(t, author, { title: 'Brand new' });
    expect((await cached(feed)).body.blogs[0].blogId).toBe(blogId);
    expect((await cached(tabs)).body.blogs[0].blogId).toBe(blogId);
    expect((await cached(page)).fromCache).toBe(true);
  });

  test('concurrent misses of the same answer compute it once', async () => {
    const url = `/api/v1/blogs?limit=7&page=1`;
    await get(url);
    queries.length = 0;
    t.app.publicCache!.invalidate();
    await get(url);
    const alone = queries.length;
    expect(alone).toBeGreaterThan(0);
    t.app.publicCache!.invalidate();
    queries.length = 0;
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(url)));
    expect(answers.every((a) => a.statusCode === 200 && a.body === answers[0]!.body)).toBe(true);
    expect(queries.length).toBe(alone);
  });

  test('an answer from a route said to be the same for everyone that read the viewer is never cached', async () => {
    const url = '/api/v1/search-blogs?search=liked&limit=10&page=1';
    const mine = await get(url, bearer(reader.token));
    expect(mine.json().blogs).toEqual([]); // the viewer's own answer
    const anonymous = await cached(url);
    expect(anonymous.fromCache).toBe(false);
    expect(anonymous.body.blogs.length).toBeGreaterThan(0);
    expect((await cached(url)).fromCache).toBe(false);
  });
});

describe('public data changes: a failed publish', () => {
  test('is retried, then the instance empties its own copies', async () => {
    // A real client to a port nobody listens on: every publish fails.
    const redis = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, lazyConnect: true, enableOfflineQueue: false });
    redis.on('error', () => {});
    const writes = new WriteSignal();
    const lines: { msg: string }[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const changes = new PublicDataChanges(writes, { redis, channel: 'test:nobody', log, retriesMs: [1, 1] });
    const seen: (readonly string[])[] = [];
    changes.on((tags) => seen.push(tags));
    try {
      changes.changed(['post:x']);
      expect(seen).toEqual([['post:x']]);
      for (let i = 0; i < 200 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(seen).toEqual([['post:x'], [ANY_CHANGE]]);
      expect(lines.filter((l) => l.msg.includes('retrying'))).toHaveLength(2);
    } finally {
      changes.close();
      redis.disconnect();
    }
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('public cache across instances: by tag', () => {
  /** Two instances on one database and one Redis (b has its own connection), closed after `run`. */
  const twoInstances = async (run: (a: TestApp, b: TestApp) => Promise<void>) => {
    const a = await createTestApp({ redisUrl: process.env.TEST_REDIS_URL });
    const b = await ownConnectionInstance(a, { redisUrl: process.env.TEST_REDIS_URL });
    try {
      await run(a, b);
    } finally {
      await b.close();
      await a.close();
    }
  };
  /**
   * Reads until `kept` is answered from b's cache right after `first`: b has heard of the writes
   * made so far (their messages may land after a first read) and keeps what `kept` reads.
   */
  const untilKept = async (b: TestApp, first: () => Promise<unknown>, kept: () => Promise<unknown>) => {
    const cache = b.app.publicCache!;
    for (let i = 0; i < 100; i++) {
      await first();
      const hits = cache.hits;
      await kept();
      if (cache.hits === hits + 1) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  test('a like on one instance drops that post on the other, and keeps the other’s unrelated entries', async () => {
    await twoInstances(async (a, b) => {
      const author = await createUser(a);
      const reader = await createUser(a);
      const { blogId } = await createBlog(a, author, { title: 'Shared by tag' });
      const quiet = (await createBlog(a, author, { title: 'Quiet by tag' })).blogId;
      const read = async (id: string) => (await b.app.inject({ method: 'GET', url: `/api/v1/blogs/${id}` })).json().blog;
      const cache = b.app.publicCache!;
      // Until b has heard of both posts' creation, and keeps the quiet one.
      await untilKept(
        b,
        () => read(blogId),
        () => read(quiet),
      );
      const like = await a.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(reader.token) });
      expect(like.statusCode).toBe(200);
      let after = await read(blogId);
      for (let i = 0; i < 100 && after.likeCount === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        after = await read(blogId);
      }
      expect(after.likeCount).toBe(1);
      const hits = cache.hits;
      expect((await read(quiet)).likeCount).toBe(0);
      expect(cache.hits).toBe(hits + 1);
    });
  });

  test('a follow on one instance shows in the other’s kept profile', async () => {
    await twoInstances(async (a, b) => {
      const author = await createUser(a);
      const fan = await createUser(a);
      const read = async () => (await b.app.inject({ method: 'GET', url: `/api/v1/users/${author.username}` })).json().user;
      const cache = b.app.publicCache!;
      // Until b has heard of both sign-ups and keeps the profile.
      await untilKept(b, read, read);
      const misses = cache.misses;
      const follow = await a.app.inject({ method: 'PATCH', url: `/api/v1/follow/${author.id}`, headers: bearer(fan.token) });
      expect(follow.json().following).toBe(true);
      await waitFor(async () => (await read()).followerCount === 1);
      // Kept, never computed again: each read was b's entry, with the count put in once b heard of the follow.
      expect(cache.misses).toBe(misses);
    });
  });
});
