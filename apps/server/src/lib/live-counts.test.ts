import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBlog, everyBlock } from '../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../test/helpers';
import { withCounts } from '../modules/blogs/blogs.presenter';
import { withFollowerCount } from '../modules/users/users.presenter';
import { CountsMemo } from './live-counts';
import { countsTag } from './public-tags';

describe('live counts: the pieces', () => {
  test('a count read while a change arrived is not remembered; a change drops only its post', () => {
    const memo = new CountsMemo();
    const before = memo.epoch;
    memo.drop(['counts:b']);
    memo.setIf('counts:b', '1,0,0', before);
    expect(memo.get('counts:b')).toBeUndefined();
    // Another post's change does not refuse this one's read.
    memo.setIf('counts:a', '1,0,0', before);
    expect(memo.get('counts:a')).toBe('1,0,0');
    memo.setIf('counts:a', '1,0,0', memo.epoch);
    memo.setIf('counts:b', '2,0,0', memo.epoch);
    memo.drop(['post:b', 'lists']);
    expect([memo.get('counts:a'), memo.get('counts:b')]).toEqual(['1,0,0', undefined]);
    memo.drop(['*']);
    expect(memo.get('counts:a')).toBeUndefined();
  });

  test('a write keeps the counts it left only when its own change is the only one heard since it began', () => {
    const memo = new CountsMemo();
    // Alone: kept.
    let epoch = memo.epoch;
    memo.drop(['counts:a', 'article:a']);
    memo.learn('counts:a', '1,0,0', epoch);
    expect(memo.get('counts:a')).toBe('1,0,0');
    // Another change of the post heard meanwhile (a concurrent write here or elsewhere): refused.
    epoch = memo.epoch;
    memo.drop(['counts:a']);
    memo.drop(['counts:a']);
    memo.learn('counts:a', '2,0,0', epoch);
    expect(memo.get('counts:a')).toBeUndefined();
    // Its own change not heard (nothing changed): refused.
    memo.learn('counts:a', '2,0,0', memo.epoch);
    expect(memo.get('counts:a')).toBeUndefined();
    // A change of another post does not matter; "anything changed" does.
    epoch = memo.epoch;
    memo.drop(['counts:b']);
    memo.drop(['counts:a', 'post:a']);
    memo.learn('counts:a', '3,0,0', epoch);
    expect(memo.get('counts:a')).toBe('3,0,0');
    epoch = memo.epoch;
    memo.drop(['counts:a']);
    memo.drop(['*']);
    memo.learn('counts:a', '4,0,0', epoch);
    expect(memo.get('counts:a')).toBeUndefined();
    // A change heard after the write reported drops what it kept.
    epoch = memo.epoch;
    memo.drop(['counts:a']);
    memo.learn('counts:a', '5,0,0', epoch);
    memo.drop(['counts:a']);
    expect(memo.get('counts:a')).toBeUndefined();
  });

  test("a user's follower count goes with a follow of them or any change of their profile, not of another's", () => {
    const memo = new CountsMemo();
    for (const user of ['ada', 'bob', 'cy']) memo.setIf(`followers:${user}`, '3', memo.epoch);
    memo.setIf('counts:ada', '1,0,0', memo.epoch);
    memo.drop(['followers:ada']);
    memo.drop(['profile:bob']);
    expect(['followers:ada', 'followers:bob', 'followers:cy', 'counts:ada'].map((k) => memo.get(k))).toEqual([
      undefined,
      undefined,
      '3',
      '1,0,0',
    ]);
  });

  test('counts are put in at their place only, whatever the title says', () => {
    const title = 'A "likeCount":9 trick ,"likeCount":7,"commentCount":7,"saveCount":7,';
    const body = JSON.stringify({
      success: true,
      blog: { title, readingTime: 1, likeCount: 1, commentCount: 2, saveCount: 3, content: [] },
    });
    const changed = withCounts(body, '10,20,30')!;
    expect(JSON.parse(changed).blog).toMatchObject({ title, likeCount: 10, commentCount: 20, saveCount: 30 });
    expect(withCounts('{"success":true}', '1,2,3')).toBeUndefined();
  });

  test('a follower count is put in at its place only, whatever the name and bio say', () => {
    const bio = 'Not ,"followerCount":99, here';
    const body = JSON.stringify({ success: true, user: { name: '"followerCount":7', bio, followerCount: 1, followingCount: 2 } });
    expect(JSON.parse(withFollowerCount(body, '12')!).user).toEqual({
      name: '"followerCount":7',
      bio,
      followerCount: 12,
      followingCount: 2,
    });
    expect(withFollowerCount('{"success":true}', '1')).toBeUndefined();
    expect(withFollowerCount(body, '1,2')).toBeUndefined();
  });
});

describe('live counts on a kept blog page', () => {
  let t: TestApp;
  let author: TestUser;
  let readers: TestUser[];
  let blogId: string;
  const queries: CompiledQuery[] = [];

  beforeAll(async () => {
    t = await createTestApp({}, undefined, (q) => queries.push(q));
    author = await createUser(t, { name: 'Live Author' });
    readers = [await createUser(t, { name: 'Live Reader One' }), await createUser(t, { name: 'Live Reader Two' })];
    blogId = (await createBlog(t, author, { title: 'Counted words' })).blogId;
  });
  afterAll(() => t.close());

  const page = () => t.app.inject({ method: 'GET', url: `/api/v1/blogs/${blogId}` });
  const write = (method: 'POST' | 'PATCH', url: string, user: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(user.token), payload });

  test('a like, a save and a comment show on the next read without the page being computed again', async () => {
    const first = await page();
    expect(first.json().blog).toMatchObject({ likeCount: 0, commentCount: 0, saveCount: 0 });
    expect((await write('POST', `/api/v1/blogs/like/${blogId}`, readers[0]!)).statusCode).toBe(200);
    expect((await write('PATCH', `/api/v1/save-blog/${blogId}`, readers[1]!)).statusCode).toBe(200);
    expect((await write('POST', `/api/v1/blogs/comment/${blogId}`, readers[1]!, { comment: 'Counted' })).statusCode).toBe(201);
    queries.length = 0;
    const hits = t.app.publicCache!.hits;
    const after = await page();
    expect(t.app.publicCache!.hits).toBe(hits + 1);
    // The counts the comment's statement left: nothing read at all.
    expect(queries).toHaveLength(0);
    const { likeCount, commentCount, saveCount, ...rest } = after.json().blog;
    const { likeCount: _l, commentCount: _c, saveCount: _s, ...before } = first.json().blog;
    expect([likeCount, commentCount, saveCount]).toEqual([1, 1, 1]);
    expect(rest).toEqual(before);
    // A new body has a new ETag: a client holding the old one gets the new counts, not a 304.
    expect(after.headers.etag).not.toBe(first.headers.etag);
    const conditional = await t.app.inject({
      method: 'GET',
      url: `/api/v1/blogs/${blogId}`,
      headers: { 'if-none-match': first.headers.etag as string },
    });
    expect(conditional.statusCode).toBe(200);
    expect(conditional.json().blog.likeCount).toBe(1);
    // The copy with the new counts is kept: the next reader reads nothing at all.
    queries.length = 0;
    expect((await page()).body).toBe(after.body);
    expect(queries).toHaveLength(0);
  });

  test('a save alone leaves its counts for the next read of the page', async () => {
    const { blogId: saved } = await createBlog(t, author, { title: 'Saved for later' });
    const url = `/api/v1/blogs/${saved}`;
    await t.app.inject({ method: 'GET', url });
    expect((await write('PATCH', `/api/v1/save-blog/${saved}`, readers[0]!)).json().saved).toBe(true);
    queries.length = 0;
    expect((await t.app.inject({ method: 'GET', url })).json().blog.saveCount).toBe(1);
    expect(queries).toHaveLength(0);
  });

  test('after a change heard from another instance (its counts unknown here), they are read once, alone', async () => {
    const { blogId: other } = await createBlog(t, author, { title: 'Liked elsewhere' });
    const url = `/api/v1/blogs/${other}`;
    await t.app.inject({ method: 'GET', url });
    await write('POST', `/api/v1/blogs/like/${other}`, readers[0]!);
    t.app.services.publicData.changed([countsTag(other)]);
    queries.length = 0;
    expect((await t.app.inject({ method: 'GET', url })).json().blog.likeCount).toBe(1);
    expect(queries.map((q) => q.sql)).toEqual([expect.stringMatching(/like_count.*comment_count.*save_count/)]);
  });

  test('likes arriving together leave the page with the count the database has', async () => {
    const { blogId: busy } = await createBlog(t, author, { title: 'Liked by many at once' });
    const url = `/api/v1/blogs/${busy}`;
    const likers = [...readers, ...(await Promise.all([0, 1, 2, 3, 4, 5].map((i) => createUser(t, { name: `Busy Liker ${i}` }))))];
    await t.app.inject({ method: 'GET', url });
    for (let round = 0; round < 3; round++) {
      await Promise.all(likers.map((u) => write('POST', `/api/v1/blogs/like/${busy}`, u)));
      const stored = await t.app.services.database.db
        .selectFrom('blogs')
        .select('like_count')
        .where('blog_id', '=', busy)
        .executeTakeFirstOrThrow();
      expect(stored.like_count).toBe(round % 2 === 0 ? likers.length : 0);
      expect((await t.app.inject({ method: 'GET', url })).json().blog.likeCount).toBe(stored.like_count);
    }
  });

  test('the body compressed for the first reader after a like is kept for the readers after', async () => {
    const { blogId: compressed } = await createBlog(t, author, { title: 'Compressed words' });
    const url = `/api/v1/blogs/${compressed}`;
    const br = { 'accept-encoding': 'gzip, deflate, br' };
    await t.app.inject({ method: 'GET', url, headers: br });
    await write('POST', `/api/v1/blogs/like/${compressed}`, readers[0]!);
    const first = await t.app.inject({ method: 'GET', url, headers: br });
    expect(first.headers['content-encoding']).toBe('br');
    expect(t.app.publicCache!.get(url)?.bodies.br).toEqual(first.rawPayload);
    expect((await t.app.inject({ method: 'GET', url, headers: br })).rawPayload).toEqual(first.rawPayload);
  });

  test('an unlike and a signed-in reader’s own flags are current at once', async () => {
    await page();
    expect((await write('POST', `/api/v1/blogs/like/${blogId}`, readers[0]!)).json().liked).toBe(false);
    expect((await page()).json().blog.likeCount).toBe(0);
    await write('POST', `/api/v1/blogs/like/${blogId}`, readers[1]!);
    const mine = (await t.app.inject({ method: 'GET', url: `/api/v1/blogs/${blogId}`, headers: bearer(readers[1]!.token) })).json().blog;
    expect([mine.isLiked, mine.likeCount]).toEqual([true, 1]);
    expect((await page()).json().blog).toMatchObject({ likeCount: 1, isLiked: false });
  });

  test('an edit still computes the page again; a deleted comment lowers the count', async () => {
    const { blogId: other } = await createBlog(t, author, { title: 'Edited words' });
    await t.app.inject({ method: 'GET', url: `/api/v1/blogs/${other}` });
    const comment = await write('POST', `/api/v1/blogs/comment/${other}`, readers[0]!, { comment: 'Gone soon' });
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/blogs/${other}` })).json().blog.commentCount).toBe(1);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/blogs/comment/${comment.json().newComment._id}`,
      headers: bearer(readers[0]!.token),
    });
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/blogs/${other}` })).json().blog.commentCount).toBe(0);
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${other}`,
      headers: bearer(author.token),
      payload: {
        title: 'Edited words, again',
        description: 'How to use it',
        tags: ['kysely'],
        content: { blocks: everyBlock() },
        draft: false,
      },
    });
    expect(edited.statusCode).toBeLessThan(300);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/blogs/${other}` })).json().blog.title).toBe('Edited words, again');
  });
});
