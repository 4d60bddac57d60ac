import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyBlock } from '../../test/blogs';
import { bearer, createTestApp, createUser, ownConnectionInstance, type TestApp, type TestUser } from '../../test/helpers';
import { ScheduledPostsRepository } from '../modules/blogs/scheduled-posts.repo';

let t: TestApp;
let writer: TestUser;
let follower: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  writer = await createUser(t, { name: 'Writer' });
  follower = await createUser(t, { name: 'Follower' });
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, token?: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, payload });
const post = (fields: Record<string, unknown>) => ({
  title: 'Scheduled news',
  description: 'Out soon',
  tags: ['scheduling'],
  content: { blocks: everyBlock() },
  draft: true,
  ...fields,
});
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const run = async () => {
  const outcome = await t.app.services.scheduler.runNow('scheduled-posts');
  if (!outcome.ran || !outcome.ok) throw new Error(`scheduled-posts did not run: ${JSON.stringify(outcome)}`);
  return outcome.report;
};
const text = async (url: string) => (await t.app.inject({ url })).body;
/** Every public place a published post shows up, as text, for an anonymous reader. */
async function everywhere(): Promise<string> {
  const parts = [
    (await api('GET', '/blogs?limit=50')).body,
    (await api('GET', '/blogs?search=scheduled&limit=50')).body,
    (await api('GET', '/blogs?tag=scheduling&limit=50')).body,
    (await api('GET', `/users/${writer.username}/blogs`)).body,
    await text('/feed.xml'),
    await text('/rss.xml'),
    await text('/feed.json'),
  ];
  const index = await text('/sitemap.xml');
  for (const [, loc] of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const url = new URL(loc!.replace(/&amp;/g, '&'));
    parts.push(await text(url.pathname + url.search));
  }
  return parts.join('\n');
}
const inbox = async (user: TestUser) =>
  (await api('GET', '/notifications?limit=50', user.token)).json().notifications as { type: string; blog: { blogId: string } | null }[];

describe('scheduled publishing', () => {
  it('keeps a scheduled post a draft, hidden everywhere, until the job publishes it once; followers then hear of it', async () => {
    await api('PATCH', `/follow/${writer.id}`, follower.token);
    const at = inSeconds(2);
    const created = await api('POST', '/blogs', writer.token, post({ draft: false, scheduledAt: at }));
    expect(created.statusCode, created.body).toBe(201);
    const { blogId, draft, scheduledAt } = created.json().blog;
    expect({ draft, scheduledAt }).toEqual({ draft: true, scheduledAt: at });

    // Before: a draft to everyone but its author, who sees when it goes out.
    expect((await api('GET', `/blogs/${blogId}`)).statusCode).toBe(404);
    expect((await api('GET', `/blogs/${blogId}`, follower.token)).statusCode).toBe(404);
    expect(await everywhere()).not.toContain(blogId);
    const drafts = (await api('GET', `/users/${writer.username}/drafts`, writer.token)).json().blogs;
    expect(drafts.find((b: { blogId: string }) => b.blogId === blogId)?.scheduledAt).toBe(at);
    expect(await run()).toEqual({ published: 0, failed: 0 });
    expect((await inbox(follower)).some((n) => n.blog?.blogId === blogId)).toBe(false);

    await sleep(Date.parse(at) - Date.now() + 50);
    // Two runs (as two instances would): one publish, one notification.
    const [first, second] = await Promise.all([run(), t.app.services.scheduler.runNow('scheduled-posts')]);
    expect(first).toEqual({ published: 1, failed: 0 });
    expect(second).toEqual({ ran: false });
    expect(await run()).toEqual({ published: 0, failed: 0 });

    const page = await api('GET', `/blogs/${blogId}`);
    expect(page.statusCode).toBe(200);
    expect(page.json().blog).toMatchObject({ draft: false, scheduledAt: null });
    expect(await everywhere()).toContain(blogId);
    const notes = (await inbox(follower)).filter((n) => n.type === 'other' && n.blog?.blogId === blogId);
    expect(notes).toHaveLength(1);
    const counts = await t.database.db.selectFrom('users').select('published_count').where('id', '=', writer.id).executeTakeFirstOrThrow();
    expect(Number(counts.published_count)).toBe(1);
  });

  it('publishes a due post once when two instances run the job at the same time', async () => {
    const other = await ownConnectionInstance(t);
    try {
      const at = inSeconds(1);
      const { blogId } = (await api('POST', '/blogs', writer.token, post({ title: 'Two instances', scheduledAt: at }))).json().blog;
      await sleep(Date.parse(at) - Date.now() + 50);
      const outcomes = await Promise.all([t, other].map((app) => app.app.services.scheduler.runNow('scheduled-posts')));
      const published = outcomes.reduce((n, o) => n + (o.ran && o.ok ? (o.report.published ?? 0) : 0), 0);
      expect(published).toBe(1);
      expect((await api('GET', `/blogs/${blogId}`)).statusCode).toBe(200);
      const notes = (await inbox(follower)).filter((n) => n.type === 'other' && n.blog?.blogId === blogId);
      expect(notes).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('publishes exactly once when the claim is contended: a second publisher of the same due post finds it taken', async () => {
    const at = inSeconds(1);
    const { blogId, _id } = (await api('POST', '/blogs', writer.token, post({ title: 'Contended', scheduledAt: at }))).json().blog;
    await sleep(Date.parse(at) - Date.now() + 50);
    const scheduled = new ScheduledPostsRepository(t.database.db);
    const now = new Date().toISOString();
    expect(await scheduled.claim(_id, now, t.database.db)).toBe(true);
    expect(await scheduled.claim(_id, now, t.database.db)).toBe(false);
    // Already claimed (as by another instance): the job publishes nothing.
    expect(await run()).toEqual({ published: 0, failed: 0 });
    expect((await api('GET', `/blogs/${blogId}`)).statusCode).toBe(404);
  });

  it('changes and cancels a schedule, and refuses past, far-off or malformed times with 400', async () => {
    const { blogId } = (await api('POST', '/blogs', writer.token, post({ title: 'Maybe later', scheduledAt: inSeconds(3600) }))).json()
      .blog;
    const later = inSeconds(7200);
    const moved = await api('PATCH', `/blogs/${blogId}`, writer.token, post({ title: 'Maybe later', scheduledAt: later }));
    expect(moved.json().blog.scheduledAt).toBe(later);
    // Saved again without scheduledAt: the schedule stays.
    expect((await api('PATCH', `/blogs/${blogId}`, writer.token, post({ title: 'Maybe later' }))).json().blog.scheduledAt).toBe(later);
    for (const cancel of ['', null]) {
      await api('PATCH', `/blogs/${blogId}`, writer.token, post({ title: 'Maybe later', scheduledAt: later }));
      const res = await api('PATCH', `/blogs/${blogId}`, writer.token, post({ title: 'Maybe later', scheduledAt: cancel }));
      expect(res.statusCode).toBe(200);
      expect(res.json().blog).toMatchObject({ draft: true, scheduledAt: null });
    }
    const cases: [unknown, string][] = [
      [inSeconds(-60), 'scheduledAt: must be in the future'],
      [inSeconds(400 * 24 * 3600), 'scheduledAt: must be at most one year ahead'],
      ['tomorrow', 'scheduledAt: must be a date and time with a time zone (ISO 8601)'],
    ];
    for (const [scheduledAt, message] of cases) {
      const res = await api('POST', '/blogs', writer.token, post({ scheduledAt }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: expect.stringContaining(message) });
    }
    // A scheduled post must be publishable when it is scheduled (the job publishes it unattended).
    const empty = await api('POST', '/blogs', writer.token, post({ description: '', scheduledAt: inSeconds(60) }));
    expect(empty.statusCode).toBe(400);
    // Publishing by hand ends the schedule.
    await api('PATCH', `/blogs/${blogId}`, writer.token, post({ title: 'Maybe later', scheduledAt: later }));
    const published = await api('PATCH', `/blogs/${blogId}`, writer.token, post({ title: 'Maybe later', draft: false }));
    expect(published.json().blog).toMatchObject({ draft: false, scheduledAt: null });
  });
});
