import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { bearer, createUser, ENGINE, type TestApp, type TestUser } from '../../test/helpers';
import { BIG, fullScans, planFixture } from '../../test/query-plans';

/** Write paths, moderation and cleanup jobs reach the big tables through indexes (the reads: query-plans.test.ts). */
let t: TestApp;
let author: TestUser;
let reader: TestUser;
let queries: CompiledQuery[];
let record: { reads: boolean; writes: boolean };
beforeAll(async () => {
  ({ t, author, reader, queries, record } = await planFixture());
});
afterAll(async () => t.close());

/** PostgreSQL's plan of a recorded statement as text, sequential scans priced out (the test tables are tiny). */
function planOf(q: CompiledQuery): Promise<string> {
  return t.database.db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${q.sql}`, [...q.parameters]));
    return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

/** Tables the cleanup jobs delete from in batches (jobs/): each batch must be an index range. */
const CLEANED = [...BIG, 'uploads', 'mail_outbox', 'email_verifications', 'password_resets', 'transfer_requests'];

describe(`write plans on ${ENGINE}`, () => {
  it('every toggle and comment finds the rows it reads, changes or removes through indexes', async () => {
    const other = await createUser(t);
    const { blogId: id } = await createBlog(t, author, { title: 'Write paths' });
    const c = await t.app.inject({
      method: 'POST',
      url: `/api/v1/blogs/comment/${id}`,
      headers: bearer(other.token),
      payload: { comment: 'w' },
    });
    const commentId = c.json().newComment._id;
    const writes: [string, 'POST' | 'PATCH', string, object?][] = [
      ['like', 'POST', `/api/v1/blogs/like/${id}`],
      ['unlike', 'POST', `/api/v1/blogs/like/${id}`],
      ['save', 'PATCH', `/api/v1/save-blog/${id}`],
      ['unsave', 'PATCH', `/api/v1/save-blog/${id}`],
      ['follow', 'PATCH', `/api/v1/follow/${author.id}`],
      ['unfollow', 'PATCH', `/api/v1/follow/${author.id}`],
      ['comment', 'POST', `/api/v1/blogs/comment/${id}`, { comment: 'again' }],
      ['comment like', 'PATCH', `/api/v1/blogs/like-comment/${commentId}`],
      ['comment unlike', 'PATCH', `/api/v1/blogs/like-comment/${commentId}`],
    ];
    const problems: string[] = [];
    for (const [name, method, url, payload] of writes) {
      queries.length = 0;
      record.reads = true;
      record.writes = true;
      const res = await t.app.inject({ method, url, headers: bearer(reader.token), payload });
      record.reads = false;
      record.writes = false;
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(300);
      for (const q of queries) {
        for (const scan of await fullScans(t, q)) problems.push(`${name}: ${scan}\n    ${q.sql}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("a like or comment reads its post's reference from blogs_ref_idx alone (SQLite: the row's columns sit after the body)", async () => {
    if (ENGINE !== 'sqlite') return;
    for (const [method, path, payload] of [
      ['POST', '/api/v1/blogs/like', undefined],
      ['POST', '/api/v1/blogs/comment', { comment: 'ref' }],
    ] as const) {
      // A post of its own each: a second write to the same post finds its reference kept (modules/blogs/post-refs).
      const { blogId: id } = await createBlog(t, author, { title: 'Reference' });
      const url = `${path}/${id}`;
      queries.length = 0;
      record.reads = true;
      const res = await t.app.inject({ method, url, headers: bearer(reader.token), payload });
      record.reads = false;
      expect(res.statusCode, res.body).toBeLessThan(300);
      const ref = queries.find((q) => q.sql.includes('creator_relations'));
      expect(ref, url).toBeDefined();
      const plan = await t.database.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${ref?.sql}`, [...(ref?.parameters ?? [])]),
      );
      expect(plan.rows.map((r) => r.detail)).toContain('SEARCH blogs USING COVERING INDEX blogs_ref_idx (blog_id=?)');
    }
  });

  it('every report and moderator action reads and writes through indexes (issue 15)', async () => {
    const mod = await createUser(t);
    const spammer = await createUser(t);
    await t.app.services.moderation.setRole(null, mod.id, 'moderator');
    const { blogId: id } = await createBlog(t, spammer, { title: 'Moderated' });
    const c = await t.app.inject({
      method: 'POST',
      url: `/api/v1/blogs/comment/${id}`,
      headers: bearer(spammer.token),
      payload: { comment: 'x' },
    });
    const commentId = c.json().newComment._id;
    const report = { targetType: 'post', targetId: id, reason: 'spam' };
    const r = await t.app.inject({ method: 'POST', url: '/api/v1/reports', headers: bearer(author.token), payload: report });
    const reason = { reason: 'Plan check' };
    const steps: [string, 'GET' | 'POST', string, object?, string?][] = [
      ['report', 'POST', '/api/v1/reports', { ...report, targetType: 'comment', targetId: commentId }, reader.token],
      ['queue', 'GET', '/api/v1/moderation/reports?limit=20'],
      ['dismiss', 'POST', `/api/v1/moderation/reports/${r.json().report.id}/dismiss`, {}],
      ['hide post', 'POST', `/api/v1/moderation/posts/${id}/hide`, reason],
      ['restore post', 'POST', `/api/v1/moderation/posts/${id}/restore`, reason],
      ['hide comment', 'POST', `/api/v1/moderation/comments/${commentId}/hide`, reason],
      ['restore comment', 'POST', `/api/v1/moderation/comments/${commentId}/restore`, reason],
      ['suspend', 'POST', `/api/v1/moderation/users/${spammer.id}/suspend`, reason],
      ['unsuspend', 'POST', `/api/v1/moderation/users/${spammer.id}/unsuspend`, reason],
      ['audit', 'GET', '/api/v1/moderation/audit?limit=20'],
    ];
    const problems: string[] = [];
    for (const [name, method, url, payload, token] of steps) {
      queries.length = 0;
      record.reads = true;
      record.writes = true;
      const res = await t.app.inject({ method, url, headers: bearer(token ?? mod.token), payload });
      record.reads = false;
      record.writes = false;
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(300);
      for (const q of queries) {
        for (const scan of await fullScans(t, q, [...BIG, 'reports', 'moderation_actions']))
          problems.push(`${name}: ${scan}\n    ${q.sql}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('deleting an account finds the open tabs it tells through indexes (notices it sent, and about its posts and comments)', async () => {
    const leaver = await createUser(t);
    const { blogId } = await createBlog(t, leaver);
    await t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(reader.token) });
    queries.length = 0;
    record.reads = true;
    await t.app.services.notifications.beforeAccountErased(leaver.id, { db: t.database.db, afterCommit: () => {} } as never);
    record.reads = false;
    expect(queries).toHaveLength(3);
    for (const q of queries) {
      expect(await fullScans(t, q)).toEqual([]);
      // With sequential scans priced out PostgreSQL can still read all of an index (every unread
      // notice, once): each read must look up the account's own rows by sender, post or comment.
      if (ENGINE === 'postgres') expect(await planOf(q)).toMatch(/Index Cond: \((sender_id|blog_id|comment_id) =/);
    }
  });

  it('every cleanup job finds its batches through indexes', async () => {
    const { scheduler } = t.app.services;
    const problems: string[] = [];
    for (const name of scheduler.names) {
      queries.length = 0;
      record.reads = true;
      record.writes = true;
      const outcome = await scheduler.runNow(name);
      record.reads = false;
      record.writes = false;
      expect(outcome, name).toMatchObject({ ran: true, ok: true });
      const batches = queries.filter((q) => !/job_leases/.test(q.sql));
      expect(batches.length, name).toBeGreaterThan(0);
      for (const q of batches) {
        for (const scan of await fullScans(t, q, CLEANED)) problems.push(`${name}: ${scan}\n    ${q.sql}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
