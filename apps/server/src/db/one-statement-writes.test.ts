import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createBlog } from '../../test/blogs';
import { bearer, createTestApp, createUser, ENGINE, type TestApp, type TestUser } from '../../test/helpers';
import { isTouchDeclaration } from './write-watch';

/**
 * On PostgreSQL a like, a comment and a follow are each one data-modifying statement (lib/tx.ts
 * oneStatement): no BEGIN or COMMIT, and what the transaction wrote (the row, the counters, the
 * notice) is all there. What they do is tested on both engines in their own suites.
 */
let t: TestApp;
let author: TestUser;
let reader: TestUser;
const sent: string[] = [];
beforeAll(async () => {
  t = await createTestApp({}, undefined, (q: CompiledQuery) => {
    if (!isTouchDeclaration(q.sql)) sent.push(q.sql.trim().toLowerCase());
  });
  author = await createUser(t, { name: 'Ada' });
  reader = await createUser(t, { name: 'Rui' });
});
afterAll(() => t.close());

/** The statements a request sent that write (the reads before them check who may write). */
async function writesOf(request: () => Promise<{ statusCode: number }>): Promise<string[]> {
  sent.length = 0;
  expect((await request()).statusCode).toBeLessThan(300);
  expect(sent.filter((s) => s === 'begin' || s === 'commit')).toEqual([]);
  return sent.filter((s) => /^(with|insert|update|delete)\b/.test(s) && /\b(insert|update|delete)\b/.test(s));
}

const notices = async (user: TestUser) =>
  (await t.app.inject({ url: '/api/v1/notifications', headers: bearer(user.token) })).json().notifications as { type: string }[];

test.skipIf(ENGINE !== 'postgres')('PostgreSQL: a like, its undo, a comment and a follow each write in one statement', async () => {
  const { blogId } = await createBlog(t, author);
  const like = () => t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(reader.token) });
  expect(await writesOf(like)).toHaveLength(1);
  expect((await t.app.inject({ url: `/api/v1/blogs/${blogId}` })).json().blog.likeCount).toBe(1);
  expect((await notices(author)).map((n) => n.type)).toEqual(['like']);
  expect(await writesOf(like)).toHaveLength(1);
  expect((await t.app.inject({ url: `/api/v1/blogs/${blogId}` })).json().blog.likeCount).toBe(0);
  expect(await notices(author)).toEqual([]);

  const comment = () =>
    t.app.inject({ method: 'POST', url: `/api/v1/blogs/comment/${blogId}`, headers: bearer(reader.token), payload: { comment: 'Nice' } });
  expect(await writesOf(comment)).toHaveLength(1);
  expect((await t.app.inject({ url: `/api/v1/blogs/${blogId}` })).json().blog.commentCount).toBe(1);
  expect((await notices(author)).map((n) => n.type)).toEqual(['comment']);

  const follow = () => t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${author.id}`, headers: bearer(reader.token) });
  expect(await writesOf(follow)).toHaveLength(1);
  expect((await t.app.inject({ url: `/api/v1/users/${author.username}` })).json().user.followerCount).toBe(1);
  expect((await notices(author)).map((n) => n.type).sort()).toEqual(['comment', 'follow']);
});
