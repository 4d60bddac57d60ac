import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let author: TestUser;
let user: TestUser;
let moderator: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [author, user, moderator, admin] = await Promise.all([
    createUser(t, { name: 'Author' }),
    createUser(t, { name: 'Reader' }),
    createUser(t, { name: 'Mod' }),
    createUser(t, { name: 'Admin' }),
  ]);
  // The command line's path (actor null): the only way to make the first admin.
  await t.app.services.moderation.setRole(null, moderator.id, 'moderator');
  await t.app.services.moderation.setRole(null, admin.id, 'admin');
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'PUT';
const api = (method: Method, url: string, token: string | null, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, payload });
const svc = () => t.app.services.moderation;
const reason = { reason: 'Spam links' };

async function comment(on: string, by: TestUser, text = 'A comment') {
  return (await api('POST', `/blogs/comment/${on}`, by.token, { comment: text })).json().newComment as { _id: string };
}

type Actor = 'visitor' | 'user' | 'author' | 'moderator' | 'admin';
const ACTORS: Actor[] = ['visitor', 'user', 'author', 'moderator', 'admin'];
/** A request ready to send, made fresh for each actor: its target belongs to `owner` (the matrix's author). */
type Setup = (owner: TestUser) => Promise<{ method: Method; url: string; body?: object }>;

/** Every new route × visitor, user, author, moderator, admin → status. */
const MATRIX: [string, Setup, Record<Actor, number>, boolean?][] = [
  [
    'GET reports',
    async () => ({ method: 'GET', url: '/moderation/reports' }),
    { visitor: 401, user: 403, author: 403, moderator: 200, admin: 200 },
  ],
  [
    'GET audit',
    async () => ({ method: 'GET', url: '/moderation/audit' }),
    { visitor: 401, user: 403, author: 403, moderator: 200, admin: 200 },
  ],
  [
    'POST report',
    async (owner) => ({
      method: 'POST',
      url: '/reports',
      body: { targetType: 'post', targetId: (await createBlog(t, owner)).blogId, reason: 'spam' },
    }),
    { visitor: 401, user: 201, author: 400, moderator: 201, admin: 201 },
  ],
  [
    'dismiss a report',
    async (owner) => {
      const { blogId } = await createBlog(t, owner);
      const report = (await api('POST', '/reports', user.token, { targetType: 'post', targetId: blogId, reason: 'spam' })).json().report;
      return { method: 'POST', url: `/moderation/reports/${report.id}/dismiss`, body: {} };
    },
    { visitor: 401, user: 403, author: 403, moderator: 200, admin: 200 },
  ],
  [
    'hide a post',
    async (owner) => ({ method: 'POST', url: `/moderation/posts/${(await createBlog(t, owner)).blogId}/hide`, body: reason }),
    { visitor: 401, user: 403, author: 403, moderator: 200, admin: 200 },
  ],
  [
    'restore a post',
    async (owner) => {
      const { blogId } = await createBlog(t, owner);
      await svc().setPostHidden(null, blogId, true, 'x');
      return { method: 'POST', url: `/moderation/posts/${blogId}/restore`, body: reason };
    },
    { visitor: 401, user: 403, author: 403, moderator: 200, admin: 200 },
  ],
  [
    'hide a comment',
    async (owner) => ({
      method: 'POST',
      url: `/moderation/comments/${(await comment((await createBlog(t, user)).blogId, owner))._id}/hide`,
      body: reason,
    }),
    { visitor: 401, user: 403, author: 403, moderator: 200, admin: 200 },
  ],
  [
    'restore a comment',
    async (owner) => {
      const c = await comment((await createBlog(t, user)).blogId, owner);
      await svc().setCommentHidden(null, c._id, true, 'x');
      return { method: 'POST', url: `/moderation/comments/${c._id}/restore`, body: reason };
    },
    { visitor: 401, user: 403, author: 403, moderator: 200, admin: 200 },
  ],
  [
    'suspend a user',
    async (owner) => ({ method: 'POST', url: `/moderation/users/${owner.id}/suspend`, body: reason }),
    { visitor: 401, user: 403, author: 403, moderator: 200, admin: 200 },
    true,
  ],
  [
    'unsuspend a user',
    async (owner) => ({ method: 'POST', url: `/moderation/users/${owner.id}/unsuspend`, body: reason }),
    // The suspended author's own token is revoked: 401.
    { visitor: 401, user: 403, author: 401, moderator: 200, admin: 200 },
    true,
  ],
  [
    'change a role',
    async (owner) => ({ method: 'PUT', url: `/moderation/users/${owner.id}/role`, body: { role: 'moderator' } }),
    { visitor: 401, user: 403, author: 403, moderator: 403, admin: 200 },
    true,
  ],
];

describe('permission matrix of the moderation routes', () => {
  describe.each(MATRIX)('%s', (name, setup, expected, ownTarget) => {
    let target: TestUser;
    beforeAll(async () => {
      target = ownTarget ? await createUser(t, { name: `Target ${name}` }) : author;
    });

    it.each(ACTORS)('%s', async (actor) => {
      const owner = target;
      // Each actor acts on a fresh item, or on the target user put back in the state the route needs.
      if (name === 'unsuspend a user' && !(await t.app.services.repos.users.findById(owner.id))!.suspended_at) {
        await svc().setSuspended(null, owner.id, true, 'setup');
      }
      if (name === 'suspend a user' && (await t.app.services.repos.users.findById(owner.id))!.suspended_at) {
        await svc().setSuspended(null, owner.id, false, 'setup');
      }
      if (name === 'change a role' && (await t.app.services.repos.users.findById(owner.id))!.role !== 'user') {
        await svc().setRole(null, owner.id, 'user');
      }
      const req = await setup(owner);
      const token = { visitor: null, user: user.token, author: owner.token, moderator: moderator.token, admin: admin.token }[actor];
      const res = await api(req.method, req.url, token, req.body);
      expect(res.statusCode, res.body).toBe(expected[actor]);
    });
  });
});

describe('reports', () => {
  it('allows one open report per reporter and item, refuses unknown targets and checks the text', async () => {
    const { blogId } = await createBlog(t, author);
    const body = { targetType: 'post', targetId: blogId, reason: 'harassment' };
    const first = await api('POST', '/reports', user.token, body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      message: 'Thank you. A moderator will look at your report.',
      report: { targetType: 'post', targetId: blogId, reason: 'harassment' },
    });
    const again = await api('POST', '/reports', user.token, body);
    expect([again.statusCode, again.json().message]).toEqual([409, 'You have already reported this. A moderator will look at it.']);
    // Once dismissed, the same reporter may report the item again.
    await api('POST', `/moderation/reports/${first.json().report.id}/dismiss`, moderator.token, {});
    expect((await api('POST', '/reports', user.token, body)).statusCode).toBe(201);

    const other = await api('POST', '/reports', user.token, { ...body, reason: 'other' });
    expect([other.statusCode, other.json().message]).toEqual([400, 'Please describe the problem']);
    const long = await api('POST', '/reports', user.token, { ...body, reason: 'other', text: 'x'.repeat(1001) });
    expect([long.statusCode, long.json().message]).toEqual([400, 'Report text must be at most 1000 characters']);
    for (const [targetType, targetId] of [
      ['post', 'no-such-post'],
      ['comment', 'not-a-uuid'],
      ['user', '0190b5c2-0000-7000-8000-000000000000'],
    ]) {
      const res = await api('POST', '/reports', user.token, { targetType, targetId, reason: 'spam' });
      expect([res.statusCode, res.json().message]).toEqual([404, 'There is nothing to report here']);
    }
    const self = await api('POST', '/reports', author.token, { targetType: 'user', targetId: author.id, reason: 'spam' });
    expect([self.statusCode, self.json().message]).toEqual([400, 'You cannot report your own post, comment or profile']);
    // A draft is not readable by the reporter: nothing to report.
    const draft = await createBlog(t, author, { draft: true });
    expect((await api('POST', '/reports', user.token, { targetType: 'post', targetId: draft.blogId, reason: 'spam' })).statusCode).toBe(
      404,
    );
  });

  it('groups open reports by item, newest first, pages with a cursor, and a hide closes them', async () => {
    const reporter2 = await createUser(t, { name: 'Second reporter' });
    const older = await createBlog(t, author, { title: 'Older reported post' });
    const c = await comment(older.blogId, author, 'Buy cheap pills at example.com');
    await api('POST', '/reports', user.token, { targetType: 'post', targetId: older.blogId, reason: 'spam' });
    await api('POST', '/reports', user.token, { targetType: 'comment', targetId: c._id, reason: 'other', text: 'Pills' });
    await api('POST', '/reports', reporter2.token, { targetType: 'post', targetId: older.blogId, reason: 'illegal' });
    await api('POST', '/reports', user.token, { targetType: 'user', targetId: author.id, reason: 'harassment' });

    const all = [];
    let cursor: string | null = null;
    do {
      const res = await api('GET', `/moderation/reports?limit=2${cursor ? `&cursor=${cursor}` : ''}`, moderator.token);
      expect(res.statusCode).toBe(200);
      all.push(...res.json().items);
      cursor = res.json().nextCursor;
    } while (cursor);
    const keys = all.map((g) => `${g.targetType}:${g.targetId}`);
    expect(new Set(keys).size).toBe(keys.length);
    const latest = all.map((g) => g.latestAt);
    expect([...latest].sort().reverse()).toEqual(latest);
    const [profile, post] = [
      all.find((g) => g.targetType === 'user' && g.targetId === author.id),
      all.find((g) => g.targetId === older.blogId),
    ];
    expect(profile.target).toMatchObject({ title: 'Author', url: `/profile/${author.username}`, hidden: false, authorSuspended: false });
    expect(post.target).toMatchObject({
      title: 'Older reported post',
      url: `/blog/${older.blogId}`,
      author: { id: author.id },
      hidden: false,
    });
    expect(post.reports.map((r: { reason: string; reporter: { id: string } }) => [r.reason, r.reporter.id])).toEqual([
      ['illegal', reporter2.id],
      ['spam', user.id],
    ]);
    const commentGroup = all.find((g) => g.targetId === c._id);
    expect(commentGroup.target).toMatchObject({ title: 'Buy cheap pills at example.com', url: `/blog/${older.blogId}#comment-${c._id}` });
    expect(commentGroup.reports[0].text).toBe('Pills');

    await api('POST', `/moderation/posts/${older.blogId}/hide`, moderator.token, reason);
    const after = (await api('GET', '/moderation/reports?limit=50', moderator.token)).json().items;
    expect(after.find((g: { targetId: string }) => g.targetId === older.blogId)).toBeUndefined();
    expect((await api('GET', '/moderation/reports?cursor=!!', moderator.token)).statusCode).toBe(400);
  });

  it("shows a suspended author's reported post and profile as suspended, not hidden, so Hide is still offered", async () => {
    const writer = await createUser(t, { name: 'Suspended writer' });
    const post = await createBlog(t, writer, { title: 'Reported before the suspension' });
    await api('POST', '/reports', user.token, { targetType: 'post', targetId: post.blogId, reason: 'spam' });
    expect((await api('POST', `/moderation/users/${writer.id}/suspend`, moderator.token, reason)).statusCode).toBe(200);
    // The suspension closed the reports on the profile; one made since shows it suspended, not hidden.
    expect((await api('POST', '/reports', user.token, { targetType: 'user', targetId: writer.id, reason: 'spam' })).statusCode).toBe(201);
    const group = async (id: string) =>
      (await api('GET', '/moderation/reports?limit=50', moderator.token)).json().items.find((g: { targetId: string }) => g.targetId === id);
    expect((await group(post.blogId))?.target).toMatchObject({ hidden: false, authorSuspended: true });
    expect((await group(writer.id))?.target).toMatchObject({ hidden: false, authorSuspended: true });
    // Hidden by a moderator as well: it stays hidden after the author is unsuspended.
    expect((await api('POST', `/moderation/posts/${post.blogId}/hide`, moderator.token, reason)).statusCode).toBe(200);
    expect((await api('POST', `/moderation/users/${writer.id}/unsuspend`, moderator.token, reason)).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/v1/blogs/${post.blogId}` })).statusCode).toBe(404);
  });

  it('answers 400 to a cursor of the right shape whose values are not a time, a kind and an id', async () => {
    const cursor = (parts: string[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    const bad = [
      ['/moderation/reports', cursor(['yesterday', 'post', '01a24eea-3f57-7000-9c82-2b5266a023e9'])],
      ['/moderation/reports', cursor(['2026-01-01T00:00:00.000Z', 'post', 'not-an-id'])],
      ['/moderation/reports', cursor(['2026-01-01T00:00:00.000Z', 'planet', '01a24eea-3f57-7000-9c82-2b5266a023e9'])],
      ['/moderation/audit', cursor(['yesterday', '01a24eea-3f57-7000-9c82-2b5266a023e9'])],
      ['/moderation/audit', cursor(['2026-01-01T00:00:00.000Z', 'not-an-id'])],
      ['/moderation/audit', cursor(['2024-02-30T00:00:00.000Z', '01a24eea-3f57-7000-9c82-2b5266a023e9'])],
      ['/moderation/reports', cursor(['2024-02-30T00:00:00.000Z', 'post', '01a24eea-3f57-7000-9c82-2b5266a023e9'])],
    ];
    for (const [path, value] of bad) {
      const res = await api('GET', `${path}?cursor=${value}`, moderator.token);
      expect([res.statusCode, res.json().message], `${path} ${Buffer.from(value!, 'base64url')}`).toEqual([400, 'Invalid cursor']);
    }
  });

  it('deletes the reports with their item and with the reporter', async () => {
    const doomed = await createUser(t, { name: 'Doomed reporter' });
    const { blogId } = await createBlog(t, author);
    await api('POST', '/reports', doomed.token, { targetType: 'post', targetId: blogId, reason: 'spam' });
    await api('POST', '/reports', user.token, { targetType: 'post', targetId: blogId, reason: 'spam' });
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('reports')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('reporter_id', 'in', [doomed.id, user.id])
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${doomed.id}`,
      headers: bearer(doomed.token),
      payload: { currentPassword: doomed.password },
    });
    expect(await count()).toBe(before - 1);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${blogId}`, headers: bearer(author.token) });
    expect(await count()).toBe(before - 2);
  });
});

describe('moderator actions', () => {
  it('asks for a reason, refuses repeats, and writes every action to the audit log, newest first', async () => {
    const { blogId } = await createBlog(t, author, { title: 'Audited post' });
    const missing = await api('POST', `/moderation/posts/${blogId}/hide`, moderator.token, {});
    expect([missing.statusCode, missing.json().message]).toEqual([400, 'Please give a reason']);
    const blank = await api('POST', `/moderation/posts/${blogId}/hide`, moderator.token, { reason: '   ' });
    expect(blank.statusCode).toBe(400);
    expect((await api('POST', `/moderation/posts/${blogId}/hide`, moderator.token, reason)).json().message).toBe('Post hidden');
    const twice = await api('POST', `/moderation/posts/${blogId}/hide`, moderator.token, reason);
    expect([twice.statusCode, twice.json().message]).toEqual([409, 'This post is already hidden']);
    expect((await api('POST', `/moderation/posts/${blogId}/restore`, admin.token, { reason: 'Not spam after all' })).json().message).toBe(
      'Post restored',
    );
    for (const url of [
      '/moderation/posts/nope/hide',
      '/moderation/comments/nope/hide',
      '/moderation/users/nope/suspend',
      '/moderation/reports/nope/dismiss',
    ]) {
      expect((await api('POST', url, moderator.token, reason)).statusCode, url).toBe(404);
    }

    const log = (await api('GET', '/moderation/audit?limit=2', moderator.token)).json();
    expect(log.items.map((i: { action: string }) => i.action)).toEqual(['restore_post', 'hide_post']);
    expect(log.items[0]).toMatchObject({
      moderator: { id: admin.id, username: admin.username },
      targetType: 'post',
      targetId: blogId,
      targetLabel: 'Audited post',
      reason: 'Not spam after all',
    });
    expect(log.items[1].moderator.id).toBe(moderator.id);
    const next = (await api('GET', `/moderation/audit?limit=50&cursor=${log.nextCursor}`, moderator.token)).json();
    // The command line's actions have no moderator.
    expect(next.items.some((i: { moderator: unknown; action: string }) => i.moderator === null && i.action === 'grant_role')).toBe(true);
  });

  it('keeps moderators from suspending admins or themselves, and admins from changing their own role', async () => {
    const self = await api('POST', `/moderation/users/${moderator.id}/suspend`, moderator.token, reason);
    expect([self.statusCode, self.json().message]).toEqual([403, 'You cannot suspend yourself']);
    const anAdmin = await api('POST', `/moderation/users/${admin.id}/suspend`, moderator.token, reason);
    expect([anAdmin.statusCode, anAdmin.json().message]).toEqual([403, 'An admin cannot be suspended. Revoke the role first.']);
    const own = await api('PUT', `/moderation/users/${admin.id}/role`, admin.token, { role: 'user' });
    expect([own.statusCode, own.json().message]).toEqual([403, 'You cannot change your own role']);
    const bad = await api('PUT', `/moderation/users/${user.id}/role`, admin.token, { role: 'owner' });
    expect(bad.statusCode).toBe(400);
  });

  it('tells the signed-in user their role', async () => {
    expect((await api('GET', '/me', admin.token)).json().user.role).toBe('admin');
    expect((await api('GET', '/me', user.token)).json().user.role).toBe('user');
  });
});
