import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { addFollowers } from '../../../test/followers';
import { bearer, createTestApp, createUser, sql, type TestApp, type TestUser } from '../../../test/helpers';
import { JobLeaseRepository } from '../../jobs/lease.repo';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const db = () => t.database.db;

/** Notices of this type about the post, and how many distinct people got them. */
async function told(blogDbId: string, type: 'other' | 'blog-update') {
  const row = await db()
    .selectFrom('notifications')
    .select((eb) => [eb.fn.countAll<string>().as('notices'), eb.fn.count<string>('recipient_id').distinct().as('people')])
    .where('blog_id', '=', blogDbId)
    .where('type', '=', type)
    .executeTakeFirstOrThrow();
  return { notices: Number(row.notices), people: Number(row.people) };
}
const fanouts = (blogDbId: string) => db().selectFrom('notification_fanouts').selectAll().where('blog_id', '=', blogDbId).execute();
const inbox = async (user: TestUser) =>
  (await api('GET', '/notifications', user.token)).json().notifications as { blog: { blogId: string } | null }[];

/** The job the publish started after its commit, or a run of it: waits until the post has no fan-out left. */
async function fanoutFinished(blogDbId: string): Promise<void> {
  let outcome: unknown;
  for (let i = 0; i < 200; i++) {
    if (!(await fanouts(blogDbId)).length) return;
    // Not run while the run the publish started goes on.
    outcome = await t.app.services.scheduler.runNow('notification-fanout');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the fan-out never finished: ${JSON.stringify(outcome)}`);
}

/** A run of the job of our own, once the one a publish started (if any) has ended. */
async function runJob() {
  for (let i = 0; i < 100; i++) {
    const outcome = await t.app.services.scheduler.runNow('notification-fanout');
    if (outcome.ran) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the job never ran');
}

/** Runs `fn` while another instance holds the job's lease, so the fan-out waits for its run. */
async function holdingTheJob(fn: () => Promise<void>): Promise<void> {
  const leases = new JobLeaseRepository(db());
  await leases.ensure('notification-fanout');
  expect(await leases.claim('notification-fanout', 'another-instance', 60_000, 0, true)).toBe(true);
  try {
    await fn();
  } finally {
    await leases.release('notification-fanout', 'another-instance', '{}');
  }
}

describe('a post with more recipients than one batch', () => {
  it('tells each of 1,234 followers once, the ones after the first 500 through the job, and never one who muted the author', async () => {
    const author = await createUser(t);
    // Followers that all followed in the same instant: the cursor must order them by id too.
    await addFollowers(t, author, 1232);
    const [muter, last] = [await createUser(t), await createUser(t)];
    for (const u of [muter, last]) expect((await api('PATCH', `/follow/${author.id}`, u.token)).statusCode).toBe(200);
    expect((await api('POST', `/users/${author.id}/mute`, muter.token)).statusCode).toBe(200);

    const { _id, blogId } = await createBlog(t, author);
    await fanoutFinished(_id);
    expect(await told(_id, 'other')).toEqual({ notices: 1233, people: 1233 });
    expect((await inbox(last)).some((n) => n.blog?.blogId === blogId)).toBe(true);
    expect((await inbox(muter)).some((n) => n.blog?.blogId === blogId)).toBe(false);
  }, 60_000);

  it('a fan-out left by a stopped instance is finished by the next run, from where it stopped', async () => {
    const author = await createUser(t);
    await addFollowers(t, author, 1200);
    const { _id } = await createBlog(t, author);
    await fanoutFinished(_id);
    await runJob(); // the run the publish started has ended, so ours is the one that finds the row
    // As if the instance stopped after the publish's own 500: the rest untold, the cursor at the 500th.
    const order = await db()
      .selectFrom('follows')
      .select(['follower_id', 'created_at'])
      .where('following_id', '=', author.id)
      .orderBy('created_at')
      .orderBy('follower_id')
      .execute();
    const rest = order.slice(500).map((f) => f.follower_id);
    for (let i = 0; i < rest.length; i += 300)
      await db()
        .deleteFrom('notifications')
        .where('blog_id', '=', _id)
        .where('recipient_id', 'in', rest.slice(i, i + 300))
        .execute();
    expect(await told(_id, 'other')).toEqual({ notices: 500, people: 500 });
    const cursor = order[499]!;
    await db()
      .insertInto('notification_fanouts')
      .values({
        blog_id: _id,
        kind: 'published',
        sender_id: author.id,
        after_id: cursor.follower_id,
        after_time: cursor.created_at,
        created_at: new Date().toISOString(),
      })
      .execute();

    const run = await runJob();
    expect(run).toMatchObject({ ran: true, ok: true, report: { notices: 700, finished: 1 } });
    expect(await told(_id, 'other')).toEqual({ notices: 1200, people: 1200 });
    expect(await fanouts(_id)).toEqual([]);
  }, 60_000);

  it('stops when the post is no longer public, and goes with a deleted post', async () => {
    const author = await createUser(t);
    await addFollowers(t, author, 1100);
    const { _id, blogId } = await createBlog(t, author, { draft: true });
    // Published while another instance holds the job: the publish's own batch, and the row for the rest.
    await holdingTheJob(async () => {
      const published = await api('PATCH', `/blogs/${blogId}`, author.token, { draft: false });
      expect(published.statusCode, published.body).toBe(200);
      expect(await told(_id, 'other')).toEqual({ notices: 500, people: 500 });
      expect(await fanouts(_id)).toHaveLength(1);
    });
    expect((await api('PATCH', `/blogs/${blogId}`, author.token, { draft: true })).statusCode).toBe(200);
    expect(await runJob()).toMatchObject({ report: { notices: 0, finished: 1 } });
    expect(await told(_id, 'other')).toEqual({ notices: 500, people: 500 });
    expect(await fanouts(_id)).toEqual([]);

    const other = await createBlog(t, author);
    expect((await fanouts(other._id)).length).toBeLessThanOrEqual(1);
    expect((await api('DELETE', `/blogs/${other.blogId}`, author.token)).statusCode).toBe(200);
    expect(await fanouts(other._id)).toEqual([]);
  }, 60_000);

  it('an edit tells each of 1,150 likers and savers once, and a second edit starts over without telling anyone twice', async () => {
    const author = await createUser(t);
    const pattern = await addFollowers(t, author, 1150);
    const { _id, blogId } = await createBlog(t, author);
    await fanoutFinished(_id);
    // Everyone likes it, and the first 400 of them save it too (each is told once).
    await sql`INSERT INTO likes (user_id, blog_id, created_at) SELECT id, ${_id}, created_at FROM users WHERE email LIKE ${pattern}`.execute(
      db(),
    );
    await sql`INSERT INTO saves (user_id, blog_id, created_at)
      SELECT id, ${_id}, created_at FROM users WHERE email LIKE ${pattern} ORDER BY id LIMIT 400`.execute(db());
    const edit = (title: string) =>
      api('PATCH', `/blogs/${blogId}`, author.token, { title, content: { blocks: [{ type: 'paragraph', data: { text: title } }] } });

    await holdingTheJob(async () => {
      expect((await edit('First edit')).statusCode).toBe(200);
      expect(await told(_id, 'blog-update')).toEqual({ notices: 500, people: 500 });
      expect((await edit('Second edit')).statusCode).toBe(200);
      expect(await told(_id, 'blog-update')).toEqual({ notices: 500, people: 500 });
      expect(await fanouts(_id)).toHaveLength(1);
    });
    await fanoutFinished(_id);
    expect(await told(_id, 'blog-update')).toEqual({ notices: 1150, people: 1150 });
  }, 60_000);
});
