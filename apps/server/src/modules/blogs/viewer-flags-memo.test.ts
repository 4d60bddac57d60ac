import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

/** The viewer-flags statement: the three EXISTS lookups on likes, saves and follows. */
const flagReads = (queries: CompiledQuery[]) => queries.filter((q) => /exists/i.test(q.sql) && /"saves"|saves/.test(q.sql)).length;

let t: TestApp;
const queries: CompiledQuery[] = [];
beforeAll(async () => {
  t = await createTestApp({}, undefined, (q) => queries.push(q));
});
afterAll(async () => t.close());

const api = (method: 'POST' | 'PATCH' | 'DELETE', url: string, token: string) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token) });

async function flags(viewer: TestUser, blogId: string) {
  const res = await t.app.inject({ url: `/api/v1/blogs/${blogId}`, headers: bearer(viewer.token) });
  expect(res.statusCode).toBe(200);
  const { isLiked, isSaved, isFollowing } = res.json().blog;
  return { isLiked, isSaved, isFollowing };
}

/** A post, its anonymous page cached, and the reader's flags remembered (the second read queries none). */
async function setUp() {
  const author = await createUser(t);
  const reader = await createUser(t);
  const { blogId } = await createBlog(t, author, { title: 'Flags' });
  await t.app.inject({ url: `/api/v1/blogs/${blogId}` });
  expect(await flags(reader, blogId)).toEqual({ isLiked: false, isSaved: false, isFollowing: false });
  queries.length = 0;
  expect(await flags(reader, blogId)).toEqual({ isLiked: false, isSaved: false, isFollowing: false });
  expect(flagReads(queries)).toBe(0);
  return { author, reader, blogId };
}

describe('the viewer’s flags on a blog page, remembered between reads', () => {
  it('shows the viewer’s own like, save and follow, and their undoing, in the next read', async () => {
    const { author, reader, blogId } = await setUp();
    expect((await api('POST', `/blogs/like/${blogId}`, reader.token)).statusCode).toBe(200);
    expect(await flags(reader, blogId)).toEqual({ isLiked: true, isSaved: false, isFollowing: false });
    expect((await api('PATCH', `/save-blog/${blogId}`, reader.token)).statusCode).toBe(200);
    expect(await flags(reader, blogId)).toEqual({ isLiked: true, isSaved: true, isFollowing: false });
    expect((await api('PATCH', `/follow/${author.id}`, reader.token)).statusCode).toBe(200);
    expect(await flags(reader, blogId)).toEqual({ isLiked: true, isSaved: true, isFollowing: true });
    expect((await api('POST', `/blogs/like/${blogId}`, reader.token)).statusCode).toBe(200);
    expect((await api('PATCH', `/save-blog/${blogId}`, reader.token)).statusCode).toBe(200);
    expect((await api('PATCH', `/follow/${author.id}`, reader.token)).statusCode).toBe(200);
    expect(await flags(reader, blogId)).toEqual({ isLiked: false, isSaved: false, isFollowing: false });
  });

  it('keeps each viewer’s flags apart', async () => {
    const { reader, blogId } = await setUp();
    const other = await createUser(t);
    expect((await api('POST', `/blogs/like/${blogId}`, reader.token)).statusCode).toBe(200);
    expect(await flags(other, blogId)).toEqual({ isLiked: false, isSaved: false, isFollowing: false });
    expect(await flags(reader, blogId)).toEqual({ isLiked: true, isSaved: false, isFollowing: false });
  });

  it('shows a follow ended by the author’s block (a write by someone else) in the next read', async () => {
    const { author, reader, blogId } = await setUp();
    expect((await api('PATCH', `/follow/${author.id}`, reader.token)).statusCode).toBe(200);
    expect((await flags(reader, blogId)).isFollowing).toBe(true);
    expect((await flags(reader, blogId)).isFollowing).toBe(true);
    expect((await api('POST', `/users/${reader.id}/block`, author.token)).statusCode).toBe(200);
    expect((await flags(reader, blogId)).isFollowing).toBe(false);
  });

  it('shows the flags the database holds after a change no write path declared (the TTL aside, any undeclared write drops them)', async () => {
    const { reader, blogId } = await setUp();
    const blog = await t.database.db.selectFrom('blogs').select('id').where('blog_id', '=', blogId).executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('saves')
      .values({ blog_id: blog.id, user_id: reader.id, created_at: new Date().toISOString() })
      .execute();
    expect((await flags(reader, blogId)).isSaved).toBe(true);
  });
});
