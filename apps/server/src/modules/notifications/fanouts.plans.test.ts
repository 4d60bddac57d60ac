import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { addFollowers } from '../../../test/followers';
import { createTestApp, createUser, ENGINE, sql, type TestApp } from '../../../test/helpers';
import { BIG, fullScans } from '../../../test/query-plans';
import { FanoutsRepository } from './fanouts.repo';

let t: TestApp;
const queries: CompiledQuery[] = [];
let recording = false;
beforeAll(async () => {
  t = await createTestApp({}, undefined, (q) => {
    if (recording && /^\s*(with|select)\b/i.test(q.sql)) queries.push(q);
  });
});
afterAll(async () => t.close());

it("reads each batch of a fan-out through an index, in the index's order (no scan or sort of all the recipients)", async () => {
  const author = await createUser(t);
  const fans = await addFollowers(t, author, 40);
  const { _id } = await createBlog(t, author);
  const { db } = t.database;
  await sql`INSERT INTO likes (user_id, blog_id, created_at) SELECT id, ${_id}, created_at FROM users WHERE email LIKE ${fans}`.execute(db);
  const [first] = await db
    .selectFrom('follows')
    .select(['follower_id', 'created_at'])
    .where('following_id', '=', author.id)
    .limit(1)
    .execute();
  const repo = new FanoutsRepository(db);

  recording = true;
  await repo.followersAfter(author.id, { id: first!.follower_id, time: first!.created_at }, 500, db);
  await repo.reactorsAfter(_id, first!.follower_id, 500, db);
  await repo.oldest();
  recording = false;
  expect(queries).toHaveLength(3);

  const problems: string[] = [];
  for (const q of queries)
    for (const scan of await fullScans(t, q, [...BIG, 'notification_fanouts'])) problems.push(`${scan}\n    ${q.sql}`);
  if (ENGINE === 'sqlite') {
    // The followers' batch and the oldest fan-out come in their index's order; the reactors' two
    // sides each stop at the batch size in their primary key, and only those (≤ 1,000) are merged.
    for (const q of [queries[0]!, queries[2]!]) {
      const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]));
      for (const { detail } of plan.rows) if (/TEMP B-TREE/.test(detail)) problems.push(`${detail}\n    ${q.sql}`);
    }
  }
  expect(problems).toEqual([]);
});
