import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let a: TestUser;
let b: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  a = await createUser(t, { name: 'Alice' });
  b = await createUser(t, { name: 'Bob' });
});
afterAll(async () => t.close());

const follow = (token: string, userId: string) =>
  t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${userId}`, headers: bearer(token) });
const counts = async (id: string) => {
  const u = (await t.app.services.repos.users.findById(id))!;
  return { followers: u.follower_count, following: u.following_count };
};

describe('PATCH /api/v1/follow/:userId', () => {
  it('follows and unfollows, keeping both counters and the session list right', async () => {
    const res = await follow(a.token, b.id);
    expect(res.json()).toEqual({ success: true, message: 'You are now following Bob', following: true });
    expect(await counts(a.id)).toEqual({ followers: 0, following: 1 });
    expect(await counts(b.id)).toEqual({ followers: 1, following: 0 });
    const me = (await t.app.inject({ url: '/api/v1/me', headers: bearer(a.token) })).json().user;
    expect(me.following).toEqual([b.id]);
    const { blogId } = await createBlog(t, b);
    expect((await t.app.inject({ url: `/api/v1/blogs/${blogId}`, headers: bearer(a.token) })).json().blog.isFollowing).toBe(true);
    expect((await follow(a.token, b.id)).json()).toMatchObject({ following: false });
    expect(await counts(b.id)).toEqual({ followers: 0, following: 0 });
  });

  it('refuses following yourself, unknown users and bad ids, and needs a token', async () => {
    const self = await follow(a.token, a.id);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('You cannot follow yourself');
    expect((await follow(a.token, '0193a1b2-0000-7000-8000-00000000dead')).statusCode).toBe(404);
    expect((await follow(a.token, 'not-an-id')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${b.id}` })).statusCode).toBe(401);
  });

  it('stays consistent under concurrent toggles', async () => {
    const c = await createUser(t);
    const results = await Promise.all(Array.from({ length: 12 }, () => follow(c.token, b.id)));
    for (const r of results) expect(r.statusCode).toBe(200);
    const rows = Number(
      (
        await t.database.db
          .selectFrom('follows')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('follower_id', '=', c.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(rows).toBeLessThanOrEqual(1);
    expect((await counts(c.id)).following).toBe(rows);
  });

  it('handles crossing follows at the same moment without failing', async () => {
    const x = await createUser(t);
    const y = await createUser(t);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? follow(x.token, y.id) : follow(y.token, x.id))));
    for (const r of results) expect(r.statusCode).toBe(200);
    const rows = await t.database.db.selectFrom('follows').selectAll().where('follower_id', 'in', [x.id, y.id]).execute();
    expect((await counts(x.id)).following).toBe(rows.filter((r) => r.follower_id === x.id).length);
    expect((await counts(y.id)).followers).toBe(rows.filter((r) => r.follower_id === x.id).length);
    expect((await counts(x.id)).followers).toBe(rows.filter((r) => r.follower_id === y.id).length);
  });
});
