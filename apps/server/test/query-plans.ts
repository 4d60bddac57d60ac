import { CompiledQuery } from 'kysely';
import { createBlog } from './blogs';
import { bearer, createTestApp, createUser, ENGINE, type TestApp, type TestUser } from './helpers';

/** Tables that grow with the site: a read path must reach them through an index. */
export const BIG = [
  'users',
  'blogs',
  'blog_tags',
  'likes',
  'saves',
  'follows',
  'comments',
  'comment_likes',
  'notifications',
  'search_docs',
  'search_recent',
];

/** An app whose statements are recorded while `record` says so, with a post that has a like, a save, a follow, a comment and a reply. */
export interface PlanFixture {
  t: TestApp;
  author: TestUser;
  reader: TestUser;
  blogId: string;
  /** Statements recorded so far (empty it before each step). */
  queries: CompiledQuery[];
  /** reads: SELECT and WITH statements; writes: UPDATE and DELETE. */
  record: { reads: boolean; writes: boolean };
}

export async function planFixture(): Promise<PlanFixture> {
  const queries: CompiledQuery[] = [];
  const record = { reads: false, writes: false };
  const t = await createTestApp({}, undefined, (q) => {
    if (record.reads && /^\s*(with|select)\b/i.test(q.sql)) queries.push(q);
    else if (record.writes && /^\s*(update|delete)\b/i.test(q.sql)) queries.push(q);
  });
  const author = await createUser(t);
  const reader = await createUser(t);
  const { blogId } = await createBlog(t, author, { tags: ['react'] });
  await t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(reader.token) });
  await t.app.inject({ method: 'PATCH', url: `/api/v1/save-blog/${blogId}`, headers: bearer(reader.token) });
  await t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${author.id}`, headers: bearer(reader.token) });
  const c = await t.app.inject({
    method: 'POST',
    url: `/api/v1/blogs/comment/${blogId}`,
    headers: bearer(reader.token),
    payload: { comment: 'hi' },
  });
  await t.app.inject({
    method: 'POST',
    url: `/api/v1/comment/${c.json().newComment._id}/${blogId}`,
    headers: bearer(author.token),
    payload: { reply: 'yo' },
  });
  return { t, author, reader, blogId, queries, record };
}

/** The full scans of `tables` in the statement's plan (none: it reaches them through indexes). */
export async function fullScans(t: TestApp, q: CompiledQuery, tables = BIG): Promise<string[]> {
  if (ENGINE === 'sqlite') {
    const plan = await t.database.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]));
    // "SCAN blogs" without an index is a full table scan; FTS virtual tables are searched by MATCH.
    return plan.rows.map((r) => r.detail).filter((d) => tables.some((table) => new RegExp(`^SCAN ${table}( AS \\w+)?$`).test(d)));
  }
  // Tiny test tables make every plan a sequential scan; with seqscan priced out, only a table
  // that has no usable index is still scanned.
  return t.database.db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${q.sql}`, [...q.parameters]));
    return plan.rows.map((r) => r['QUERY PLAN']).filter((line) => tables.some((table) => new RegExp(`Seq Scan on ${table}\\b`).test(line)));
  });
}
