import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, ENGINE, type TestApp, type TestUser } from '../../test/helpers';
import { fullScans, planFixture } from '../../test/query-plans';
import { CommentsRepository } from '../modules/comments/comments.repo';
import { ProfileListsRepository } from '../modules/users/users.lists.repo';
import { createDatabase } from './database';
import type { Database } from './schema';

let t: TestApp;
let author: TestUser;
let reader: TestUser;
let blogId: string;
let rootId: string;
let queries: CompiledQuery[];
let record: { reads: boolean; writes: boolean };
beforeAll(async () => {
  ({ t, author, reader, blogId, queries, record } = await planFixture());
  const [root] = await t.database.db.selectFrom('comments').select('id').where('parent_id', 'is', null).limit(1).execute();
  rootId = root!.id;
});
afterAll(async () => t.close());

/** Every read the product makes, as a visitor and as a signed-in user. */
const READS = (): [string, string, string?][] => [
  ['home feed', '/api/v1/blogs?limit=4&page=1'],
  ['deep feed page', '/api/v1/blogs?limit=4&page=50'],
  ['blog page', `/api/v1/blogs/${blogId}`, reader.token],
  ['search', '/api/v1/search-blogs?search=kysely%20po&limit=10'],
  ['tag page', '/api/v1/search-blogs?tag=react&limit=10'],
  ['comments', `/api/v1/blogs/${blogId}/comments?limit=20`, reader.token],
  [
    'thread replies after a cursor',
    `/api/v1/blogs/${blogId}/comments/${rootId}/replies?cursor=${Buffer.from(JSON.stringify(['2000-01-01T00:00:00.000Z', '00000000-0000-7000-8000-000000000000'])).toString('base64url')}`,
    reader.token,
  ],
  ['profile', `/api/v1/users/${author.username}`, reader.token],
  ['profile blogs', `/api/v1/users/${author.username}/blogs?limit=10`],
  ['drafts', `/api/v1/users/${author.username}/drafts?limit=10`, author.token],
  ['liked', `/api/v1/users/${reader.username}/liked-blogs?limit=10`, reader.token],
  ['saved', `/api/v1/users/${reader.username}/saved-blogs?limit=10`, reader.token],
  ['followers', `/api/v1/users/${author.username}/followers?limit=10`],
  ['following', `/api/v1/users/${reader.username}/following?limit=10`],
  ['notifications', '/api/v1/notifications?limit=4', author.token],
  ['notifications filtered', '/api/v1/notifications?limit=20&filter=like', author.token],
  [
    'notifications after a cursor',
    `/api/v1/notifications?limit=20&filter=unread&cursor=${Buffer.from(JSON.stringify(['2099-01-01T00:00:00.000Z', 'ffffffff-ffff-7fff-bfff-ffffffffffff'])).toString('base64url')}`,
    author.token,
  ],
  ['session', '/api/v1/me', reader.token],
  ['site feed', '/feed.xml'],
  ['author feed', `/@${author.username}/rss.xml`],
  ['tag feed', '/tag/react/feed.json'],
];

/** Runs `work` in a transaction that is always rolled back, and returns what it returned. */
async function rolledBack<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const rollback = new Error('rolled back');
  let result!: T;
  await db
    .transaction()
    .execute(async (trx) => {
      result = await work(trx);
      throw rollback;
    })
    .catch((err) => {
      if (err !== rollback) throw err;
    });
  return result;
}

if (ENGINE !== 'postgres')
  console.warn(
    'SKIPPED on SQLite: three query-plan tests check PostgreSQL-only plans (a partial index, generic plans of named statements, LATERAL counts); they run in the PostgreSQL project.',
  );
describe(`query plans on ${ENGINE}`, () => {
  it('recognises a full scan when there is one (the check can fail)', async () => {
    const placeholder = ENGINE === 'sqlite' ? '?' : '$1';
    const scans = await fullScans(t, CompiledQuery.raw(`select id from blogs where title = ${placeholder}`, ['x']));
    expect(scans.length).toBeGreaterThan(0);
  });

  it('every read path uses indexes on the big tables (no full scans)', async () => {
    const problems: string[] = [];
    for (const [name, url, token] of READS()) {
      queries.length = 0;
      record.reads = true;
      const res = await t.app.inject({ url, headers: token ? bearer(token) : {} });
      record.reads = false;
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      expect(queries.length, name).toBeGreaterThan(0);
      for (const q of queries) {
        for (const scan of await fullScans(t, q)) problems.push(`${name}: ${scan}\n    ${q.sql}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every paginated list reads its index in order, tie-breaker included (no sort of all its rows)', async () => {
    // SQLite says "USE TEMP B-TREE FOR LAST TERM OF ORDER BY" ("LAST 2 TERMS" for two) when the
    // index stops before the tie-breaker: every row of the post, user or recipient is then read and sorted for one page.
    // (PostgreSQL's incremental sort stops at the limit; its plans on tiny tables say nothing.)
    if (ENGINE !== 'sqlite') return;
    const problems: string[] = [];
    for (const [name, url, token] of READS()) {
      queries.length = 0;
      record.reads = true;
      await t.app.inject({ url, headers: token ? bearer(token) : {} });
      record.reads = false;
      for (const q of queries) {
        const plan = await t.database.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]),
        );
        for (const { detail } of plan.rows)
          if (/LAST (?:\d+ TERMS|TERM) OF ORDER BY/.test(detail)) problems.push(`${name}: ${detail}\n    ${q.sql}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.skipIf(ENGINE !== 'postgres')(
    "a post's comments page reads its top-level comments in order and stops at the page (PostgreSQL)",
    async () => {
      // PostgreSQL takes `parent_id IS NULL` as a condition, not a fixed value of comments_blog_idx's
      // second column, so that index is not in created_at order for it: every page read and sorted
      // all of the post's top-level comments. comments_top_level_idx (migration 0028) holds only them.
      // Sorting is priced out as the sequential scans are: a Sort still planned has no index for it.
      queries.length = 0;
      record.reads = true;
      await t.app.inject({ url: `/api/v1/blogs/${blogId}/comments?limit=20` });
      record.reads = false;
      const list = queries.find((q) => /"comments"\."parent_id" is null/.test(q.sql));
      expect(list, 'the top-level comments query').toBeDefined();
      const plan = await t.database.db.transaction().execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
        await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_sort = off'));
        const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${list!.sql}`, [...list!.parameters]));
        return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/Index Scan Backward using comments_top_level_idx/);
      expect(plan).not.toMatch(/\bSort\b/);
    },
  );

  it.skipIf(ENGINE !== 'postgres')(
    "a thread's replies, a profile and its follows keep one plan once named, instead of planning every read (PostgreSQL)",
    async () => {
      // PostgreSQL plans a named statement five times for its values, then keeps the generic plan
      // unless that plan's price is higher. The replies' root ids were an array whose length the
      // planner saw: one id priced below the generic plan's 10, so every read was planned anew
      // (0.37 ms of PostgreSQL's CPU for a 0.08 ms read). db/prepared.ts oneOf hides the length.
      // Straight from the repositories: the pages' answers may already be in the response cache.
      const [root] = await t.database.db.selectFrom('comments').select('id').where('parent_id', 'is', null).execute();
      queries.length = 0;
      record.reads = true;
      const comments = new CommentsRepository(t.database.db);
      await comments.listDescendants([root!.id], null);
      await comments.listThreadReplies(root!.id, null);
      const profiles = new ProfileListsRepository(t.database.db);
      await profiles.findProfile(author.username, null);
      await profiles.follows('following', reader.id, null, 10, 0);
      record.reads = false;
      const named = {
        comment_replies: queries.find((q) => /WITH RECURSIVE tree/.test(q.sql) && /row_number/.test(q.sql)),
        comment_thread_replies: queries.find((q) => /WITH RECURSIVE tree/.test(q.sql) && !/row_number/.test(q.sql)),
        profile_with_counts: queries.find((q) => /as "liked_count"/.test(q.sql)),
        follows_page_following: queries.find((q) => /from "follows" as "f"/.test(q.sql)),
      };
      for (const [name, q] of Object.entries(named)) {
        expect(q, name).toBeDefined();
        // A new connection (PostgreSQL averages a statement's custom plans over its whole life on a
        // connection) runs the statement by name (db/database.ts) ten times, in a transaction that
        // is rolled back, over a post with threads whose statistics the planner has read: on a few
        // test rows every plan is priced alike.
        const fresh = createDatabase({
          databaseUrl: process.env.TEST_DATABASE_URL,
          sqliteFile: '',
          pgSchema: t.database.pgSchema,
          poolSize: 1,
        });
        const plans = await rolledBack(fresh.db, async (trx) => {
          // 300 more threads on the post, and five replies below each.
          await trx.executeQuery(
            CompiledQuery.raw(
              `INSERT INTO comments (id, blog_id, user_id, comment, created_at, updated_at)
             SELECT gen_random_uuid(), c.blog_id, c.user_id, 'thread ' || g, now(), now()
             FROM comments c CROSS JOIN generate_series(1, 300) g WHERE c.id = $1`,
              [root!.id],
            ),
          );
          await trx.executeQuery(
            CompiledQuery.raw(
              `INSERT INTO comments (id, blog_id, user_id, parent_id, comment, created_at, updated_at)
             SELECT gen_random_uuid(), c.blog_id, c.user_id, c.id, 'reply ' || g, now(), now()
             FROM comments c CROSS JOIN generate_series(1, 5) g WHERE c.parent_id IS NULL`,
            ),
          );
          await trx.executeQuery(CompiledQuery.raw('ANALYZE comments'));
          for (let i = 0; i < 10; i++) await trx.executeQuery(CompiledQuery.raw(q!.sql, [...q!.parameters]));
          const stats = await trx.executeQuery<{ generic_plans: string; custom_plans: string }>(
            CompiledQuery.raw('SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1', [name]),
          );
          return stats.rows[0];
        }).finally(() => fresh.destroy());
        expect(plans, `${name} runs as a named statement`).toBeDefined();
        // Five custom plans first, then the generic one for every execution.
        expect(Number(plans!.generic_plans), `${name}: generic plans (custom: ${plans!.custom_plans})`).toBe(5);
      }
    },
  );

  it.skipIf(ENGINE !== 'postgres')(
    "a profile counts its likes and saves by each post's primary key, never by hashing every post (PostgreSQL)",
    async () => {
      // For a user with ~60 likes on a 1,000-post site PostgreSQL hashed every post of the site to
      // count them (1.2 ms against 0.18 ms); the LATERAL step in users.lists.repo.ts keeps each
      // like a lookup of its post.
      queries.length = 0;
      record.reads = true;
      await new ProfileListsRepository(t.database.db).findProfile(reader.username, null);
      record.reads = false;
      const [profile] = queries;
      const plan = await rolledBack(t.database.db, async (trx) => {
        // Tiny test tables make a scan of every post the cheapest plan: price it out.
        await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
        const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`EXPLAIN ${profile!.sql}`, [...profile!.parameters]),
        );
        return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan.match(/Index Scan using blogs_pk/g), plan).toHaveLength(2);
      expect(plan).not.toMatch(/Hash Join/);
    },
  );
});
