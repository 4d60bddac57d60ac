import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBlog, postComment } from '../../test/blogs';
import { bearer, createTestApp, createUser, ownConnectionInstance, type TestApp, type TestUser } from '../../test/helpers';

/** Response headers that differ on every response by design. */
const stable = (headers: Record<string, unknown>) => {
  const { date: _d, 'x-request-id': _r, connection: _c, ...rest } = headers;
  return rest;
};

describe('public response cache', () => {
  let t: TestApp;
  let author: TestUser;
  let reader: TestUser;
  let blogId: string;
  const queries: CompiledQuery[] = [];

  beforeAll(async () => {
    t = await createTestApp({}, undefined, (q) => queries.push(q));
    author = await createUser(t, { name: 'Cache Author' });
    reader = await createUser(t, { name: 'Cache Reader' });
    blogId = (await createBlog(t, author, { title: 'Cached words' })).blogId;
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  test('a repeated anonymous read is answered without touching the database, with the same body and headers', async () => {
    const url = `/api/v1/blogs/${blogId}`;
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    queries.length = 0;
    const second = await get(url);
    expect(queries).toHaveLength(0);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(stable(second.headers)).toEqual(stable(first.headers));
    expect(second.headers['content-security-policy']).toContain("script-src 'self'");
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  test('compressed and conditional requests are answered from the cache correctly', async () => {
    const url = `/api/v1/blogs/${blogId}/comments?page=1`;
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/blogs/comment/${blogId}`,
      headers: bearer(reader.token),
      payload: { comment: 'x'.repeat(1500) },
    });
    const fullPath = await get(url, { 'accept-encoding': 'gzip' });
    expect(fullPath.headers['content-encoding']).toBe('gzip');
    const plain = await get(url);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(gunzipSync(fullPath.rawPayload).toString()).toBe(plain.body);
    const gzip = await get(url, { 'accept-encoding': 'gzip' });
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.headers['content-encoding']).toBe('br');
    const notModified = await get(url, { 'if-none-match': String(plain.headers.etag) });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
  });

  test('a like, a comment and a profile change show at once to anonymous readers', async () => {
    const url = `/api/v1/blogs/${blogId}`;
    const before = (await get(url)).json().blog;
    await get(url); // cached now
    const like = await t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(reader.token) });
    expect(like.statusCode).toBe(200);
    const afterLike = (await get(url)).json().blog;
    expect(afterLike.likeCount).toBe(before.likeCount + 1);

    const feedUrl = '/api/v1/blogs?limit=4&page=1';
    await get(feedUrl);
    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/v1/blogs/comment/${blogId}`,
      headers: bearer(reader.token),
      payload: { comment: 'Fresh comment' },
    });
    expect(comment.statusCode).toBe(201);
    const comments = (await get(`/api/v1/blogs/${blogId}/comments`)).json().comments;
    expect(comments.map((c: { comment: string }) => c.comment)).toContain('Fresh comment');

    const profileUrl = `/api/v1/users/${author.username}`;
    expect((await get(profileUrl)).json().user.name).toBe('Cache Author');
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${author.id}`,
      headers: bearer(author.token),
      payload: { name: 'Renamed Author' },
    });
    expect(edit.statusCode).toBe(200);
    expect((await get(profileUrl)).json().user.name).toBe('Renamed Author');
    expect((await get(url)).json().blog.creator.name).toBe('Renamed Author');
  });

  describe('a new comment goes into the cached first page of its post’s comments', () => {
    let full: TestApp;
    let postId: string;
    beforeAll(async () => {
      full = await createTestApp({ responseCache: false }, t);
      postId = (await createBlog(t, author, { title: 'Talked about' })).blogId;
      for (const text of ['first', 'second', 'third']) await commentOn(postId, text);
    });
    afterAll(() => full.close());

    const commentOn = (id: string, text: string, parent?: string) => postComment(t, reader, id, text, parent);
    /** The answer the full path gives now (no cache), with its ETag. */
    const uncached = async (url: string) => {
      const res = await full.app.inject({ method: 'GET', url });
      return { body: res.body, etag: res.headers.etag };
    };

    test('the next reader gets it from memory, exactly as the database would answer', async () => {
      const urls = [`/api/v1/blogs/${postId}/comments`, `/api/v1/blogs/${postId}/comments?page=1&limit=3`] as const;
      for (const url of urls) await get(url); // cached
      const added = await commentOn(postId, 'fourth');
      queries.length = 0;
      const served = [];
      for (const url of urls) served.push({ url, res: await get(url) });
      expect(queries).toHaveLength(0);
      for (const { url, res } of served) {
        expect(res.json().comments[0]._id, url).toBe(added._id);
        expect({ body: res.body, etag: res.headers.etag }, url).toEqual(await uncached(url));
      }
      // The full page of three lost its oldest comment to the second page.
      const three = (await get(urls[1])).json();
      expect(three.comments.map((c: { comment: string }) => c.comment)).toEqual(['fourth', 'third', 'second']);
      expect(three).toMatchObject({ hasMore: true, total: 4 });
      // Compressed, and revalidated, from the updated entry.
      const gzip = await get(urls[0], { 'accept-encoding': 'gzip' });
      expect(gunzipSync(gzip.rawPayload).toString()).toBe((await uncached(urls[0])).body);
      expect((await get(urls[0], { 'if-none-match': gzip.headers.etag as string })).statusCode).toBe(304);
    });

    test('a reply, a later page or an edit drops the page instead: read again, and the same as the database', async () => {
      const urls = [`/api/v1/blogs/${postId}/comments`, `/api/v1/blogs/${postId}/comments?page=2&limit=2`] as const;
      for (const url of urls) await get(url);
      const parent = await commentOn(postId, 'fifth');
      for (const url of urls) expect((await get(url)).body, url).toBe((await uncached(url)).body);
      await get(urls[0]);
      await commentOn(postId, 'a reply', parent._id);
      queries.length = 0;
      const withReply = await get(urls[0]);
      expect(queries.some((q) => q.sql.includes('comments'))).toBe(true);
      expect(withReply.json().comments[0].replies.map((r: { comment: string }) => r.comment)).toEqual(['a reply']);
      expect(withReply.body).toBe((await uncached(urls[0])).body);
      const edit = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/blogs/edit-comment/${parent._id}`,
        headers: bearer(reader.token),
        payload: { updatedCommentContent: 'fifth, edited' },
      });
      expect(edit.statusCode).toBe(200);
      expect((await get(urls[0])).json().comments[0].comment).toBe('fifth, edited');
    });
  });

  test('a search answer is tagged with its cards: a like on another post keeps it, a like on its own post shows within the counts lag', async () => {
    const elsewhere = (await createBlog(t, author, { title: 'Unrelated zebra notes' })).blogId;
    const url = '/api/v1/search-blogs?search=cached&limit=10&page=1';
    const likes = () => get(url).then((r) => r.json().blogs as { blogId: string; likeCount: number }[]);
    const [card] = await likes();
    expect(card!.blogId).toBe(blogId);
    const like = (id: string, user: TestUser) =>
      t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${id}`, headers: bearer(user.token) });
    expect((await like(elsewhere, reader)).statusCode).toBe(200);
    queries.length = 0;
    await likes();
    expect(queries).toHaveLength(0);
    expect((await like(blogId, author)).statusCode).toBe(200);
    await expect.poll(async () => (await likes())[0]!.likeCount, { timeout: 5000, interval: 100 }).toBe(card!.likeCount + 1);
  });

  test('a signed-in read of a kept blog page is the anonymous body plus the viewer’s own flags, read from the database, and stays private', async () => {
    const url = `/api/v1/blogs/${blogId}`;
    const anonymous = (await get(url)).json().blog;
    await get(url);
    queries.length = 0;
    const signedIn = await get(url, bearer(reader.token));
    // The token's state and the viewer's flags: never the page itself, which comes from the cache.
    expect(queries.map((q) => q.sql).some((sql) => /\bcontent\b/.test(sql))).toBe(false);
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.length).toBeLessThanOrEqual(2);
    const { isLiked, isSaved, isFollowing, ...rest } = signedIn.json().blog;
    const { isLiked: _l, isSaved: _s, isFollowing: _f, ...anonymousRest } = anonymous;
    expect(rest).toEqual(anonymousRest);
    expect([isLiked, isSaved, isFollowing].every((f) => typeof f === 'boolean')).toBe(true);
    expect(signedIn.headers['cache-control']).toBe('private, no-cache');
  });

  test('the feed is shared with signed-in readers who mute nobody (one mutes lookup), private for them', async () => {
    const url = '/api/v1/blogs?limit=3&page=1';
    const first = await get(url, bearer(reader.token));
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const anonymous = await get(url);
    expect(anonymous.body).toBe(first.body);
    queries.length = 0;
    const signedIn = await get(url, bearer(reader.token));
    // Issue 15: the token check and "does this reader mute anyone", never the feed's own query.
    expect(queries.map((q) => q.sql).filter((sql) => !sql.includes('token_version'))).toEqual([expect.stringContaining('user_mutes')]);
    expect(signedIn.body).toBe(anonymous.body);
    expect(signedIn.headers['cache-control']).toBe('private, no-cache');
    expect(anonymous.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  test('each signed-in reader sees their own flags on a kept blog page, and a change shows at once', async () => {
    const other = await createUser(t, { name: 'Other Reader' });
    const { blogId: id } = await createBlog(t, author, { title: 'Flags' });
    const flags = async (user: TestUser) => (await get(`/api/v1/blogs/${id}`, bearer(user.token))).json().blog;
    expect((await flags(reader)).isLiked).toBe(false);
    await t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${id}`, headers: bearer(reader.token) });
    await t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${author.id}`, headers: bearer(other.token) });
    const anonymous = await get(`/api/v1/blogs/${id}`); // fills the cache the signed-in pages are made from
    const mineRes = await get(`/api/v1/blogs/${id}`, bearer(reader.token));
    const mine = mineRes.json().blog;
    const theirs = await flags(other);
    expect([mine.isLiked, mine.isFollowing, mine.likeCount]).toEqual([true, false, 1]);
    expect([theirs.isLiked, theirs.isFollowing, theirs.likeCount]).toEqual([false, true, 1]);
    expect(anonymous.json().blog.isLiked).toBe(false);
    expect(mineRes.headers['cache-control']).toBe('private, no-cache');
    expect(mineRes.headers.etag).not.toBe(anonymous.headers.etag);
    expect((await get(`/api/v1/blogs/${id}`, { ...bearer(reader.token), 'if-none-match': String(mineRes.headers.etag) })).statusCode).toBe(
      304,
    );
    const invalid = await get(`/api/v1/blogs/${id}`, bearer('not-a-token'));
    expect(invalid.statusCode).toBe(200);
    expect(invalid.json().blog.isLiked).toBe(false);
  });

  test('a draft never reaches the cache and a deleted blog stops being served', async () => {
    const draft = await createBlog(t, author, { title: 'Secret draft', draft: true });
    expect((await get(`/api/v1/blogs/${draft.blogId}`)).statusCode).toBe(404);
    const url = `/api/v1/blogs/${blogId}`;
    await get(url);
    const del = await t.app.inject({ method: 'DELETE', url, headers: bearer(author.token) });
    expect(del.statusCode).toBe(200);
    expect((await get(url)).statusCode).toBe(404);
  });
});

if (!process.env.TEST_REDIS_URL)
  console.warn('SKIPPED: TEST_REDIS_URL is not set, so cache invalidation across instances does not run (CI sets it).');
describe.skipIf(!process.env.TEST_REDIS_URL)('public response cache across instances through Redis', () => {
  test('a write on one instance empties the other instance’s cache', async () => {
    const a = await createTestApp({ redisUrl: process.env.TEST_REDIS_URL });
    const b = await ownConnectionInstance(a, { redisUrl: process.env.TEST_REDIS_URL });
    try {
      const author = await createUser(a);
      const reader = await createUser(a);
      const { blogId } = await createBlog(a, author, { title: 'Shared' });
      const url = `/api/v1/blogs/${blogId}`;
      const likes = async () => (await b.app.inject({ method: 'GET', url })).json().blog;
      const before = await likes();
      await likes(); // cached on b
      const like = await a.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(reader.token) });
      expect(like.statusCode).toBe(200);
      // Pub/sub is asynchronous: poll until b answers with the new count.
      let after = await likes();
      for (let i = 0; i < 100 && JSON.stringify(after) === JSON.stringify(before); i++) {
        await new Promise((r) => setTimeout(r, 20));
        after = await likes();
      }
      expect(after).not.toEqual(before);

      // A comment on a: b's cached first page of comments is dropped (the tags alone travel), not kept.
      const commentsUrl = `/api/v1/blogs/${blogId}/comments`;
      const onB = async () => (await b.app.inject({ method: 'GET', url: commentsUrl })).json().comments as { comment: string }[];
      await onB(); // cached on b
      await a.app.inject({ method: 'GET', url: commentsUrl }); // cached on a, updated there in place
      await postComment(a, reader, blogId, 'Said on a');
      let seenOnB = await onB();
      for (let i = 0; i < 100 && seenOnB.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        seenOnB = await onB();
      }
      expect(seenOnB.map((c) => c.comment)).toEqual(['Said on a']);
      expect((await a.app.inject({ method: 'GET', url: commentsUrl })).json().comments.map((c: { comment: string }) => c.comment)).toEqual([
        'Said on a',
      ]);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
