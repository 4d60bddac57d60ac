import { type HiddenItem, MAX_PAGE_LIMIT } from '@inkwell/core';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, ENGINE, type TestApp, type TestUser } from '../../../test/helpers';

/** GET /moderation/hidden: the moderators' 'Hidden and suspended' list, on SQLite and (TEST_DATABASE_URL) PostgreSQL. */
let t: TestApp;
let author: TestUser;
let reader: TestUser;
let moderator: TestUser;
const queries: CompiledQuery[] = [];
let recording = false;
beforeAll(async () => {
  t = await createTestApp({}, undefined, (q) => {
    if (recording && /^\s*select\b/i.test(q.sql)) queries.push(q);
  });
  [author, reader, moderator] = await Promise.all([
    createUser(t, { name: 'Author' }),
    createUser(t, { name: 'Reader' }),
    createUser(t, { name: 'Mod Erator' }),
  ]);
  await t.app.services.moderation.setRole(null, moderator.id, 'moderator');
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST';
const api = (method: Method | 'DELETE', url: string, token: string | null, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, payload });
const svc = () => t.app.services.moderation;
const hidden = async (kind: string, query = '') => {
  const res = await api('GET', `/moderation/hidden?kind=${kind}${query}`, moderator.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: HiddenItem[]; nextCursor: string | null };
};
const ids = (items: HiddenItem[]) => items.map((i) => (i.kind === 'post' ? i.post._id : i.kind === 'comment' ? i.comment._id : i.user._id));

async function comment(on: string, by: TestUser, text: string) {
  const res = await api('POST', `/blogs/comment/${on}`, by.token, { comment: text });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().newComment as { _id: string };
}

/**
 * What in the statement's plan walks a whole table or index, or sorts: nothing may. (test/query-plans'
 * fullScans looks for 'SCAN <table>', which SQLite writes as 'SCAN <alias>' for an aliased table.)
 * PostgreSQL's plans of tiny tables are checked with seqscan priced out (it may still sort two rows
 * rather than walk an index backwards), and the audit log must be entered through an index on the action.
 */
async function walks(q: CompiledQuery): Promise<string[]> {
  if (ENGINE === 'sqlite') {
    const plan = await t.database.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]));
    return plan.rows.map((r) => r.detail).filter((d) => /^SCAN |TEMP B-TREE/.test(d));
  }
  return t.database.db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${q.sql}`, [...q.parameters]));
    const lines = plan.rows.map((r) => r['QUERY PLAN']);
    const bad = lines.filter((line) => /Seq Scan/.test(line));
    return lines.some((line) => /Index Cond: \(+action = /.test(line)) ? bad : [...bad, 'no index range on action', ...lines];
  });
}

describe('GET /moderation/hidden', () => {
  it('lists a hidden post with its author, and who hid it, when and why; a restore takes it off', async () => {
    const { blogId } = await createBlog(t, author, { title: 'Spammy post' });
    expect(ids((await hidden('posts')).items)).not.toContain(blogId);
    expect((await api('POST', `/moderation/posts/${blogId}/hide`, moderator.token, { reason: 'Link farm' })).statusCode).toBe(200);

    const [first] = (await hidden('posts')).items;
    expect(first).toMatchObject({
      kind: 'post',
      post: {
        _id: blogId,
        title: 'Spammy post',
        url: `/blog/${blogId}`,
        author: { id: author.id, username: author.username, name: 'Author' },
      },
      action: { by: { id: moderator.id, username: moderator.username, name: 'Mod Erator' }, reason: 'Link farm' },
    });
    expect(Number.isNaN(Date.parse(first!.action.at))).toBe(false);

    expect((await api('POST', `/moderation/posts/${blogId}/restore`, moderator.token, { reason: 'Fine' })).statusCode).toBe(200);
    expect(ids((await hidden('posts')).items)).not.toContain(blogId);

    // Hidden again: listed once, with the last hide's reason; the command line's hide has no moderator.
    await svc().setPostHidden(null, blogId, true, 'Back again');
    const again = (await hidden('posts')).items.filter((i) => i.kind === 'post' && i.post._id === blogId);
    expect(again).toHaveLength(1);
    expect(again[0]!.action).toMatchObject({ by: null, reason: 'Back again' });
  });

  it('lists a hidden comment with a plain excerpt and the post it is on; a restore takes it off', async () => {
    const { blogId } = await createBlog(t, author, { title: 'Host post' });
    const long = `Buy   cheap\npills ${'x'.repeat(200)}`;
    const c = await comment(blogId, reader, long);
    expect((await api('POST', `/moderation/comments/${c._id}/hide`, moderator.token, { reason: 'Spam' })).statusCode).toBe(200);

    const item = (await hidden('comments')).items.find((i) => i.kind === 'comment' && i.comment._id === c._id);
    expect(item).toMatchObject({
      kind: 'comment',
      comment: {
        _id: c._id,
        url: `/blog/${blogId}#comment-${c._id}`,
        author: { id: reader.id, username: reader.username },
        post: { _id: blogId, title: 'Host post', url: `/blog/${blogId}` },
      },
      action: { by: { id: moderator.id }, reason: 'Spam' },
    });
    const excerpt = item?.kind === 'comment' ? item.comment.excerpt : '';
    expect(excerpt.startsWith('Buy cheap pills x')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(80);
    // Posts and users are other lists.
    expect(ids((await hidden('posts')).items)).not.toContain(c._id);

    expect((await api('POST', `/moderation/comments/${c._id}/restore`, moderator.token, { reason: 'ok' })).statusCode).toBe(200);
    expect(ids((await hidden('comments')).items)).not.toContain(c._id);
  });

  it("lists a suspended user, but not the suspended author's posts as hidden posts; an unsuspension takes them off", async () => {
    const target = await createUser(t, { name: 'Troll' });
    const { blogId } = await createBlog(t, target);
    expect((await api('POST', `/moderation/users/${target.id}/suspend`, moderator.token, { reason: 'Abuse' })).statusCode).toBe(200);

    const item = (await hidden('users')).items.find((i) => i.kind === 'user' && i.user._id === target.id);
    expect(item).toEqual({
      kind: 'user',
      user: { _id: target.id, username: target.username, name: 'Troll', url: `/profile/${target.username}` },
      action: {
        at: expect.any(String),
        by: { id: moderator.id, username: moderator.username, name: 'Mod Erator' },
        reason: 'Abuse',
      },
    });
    // Their post is out of sight through the suspension, not a moderator's hide: Restore could not show it.
    expect(ids((await hidden('posts')).items)).not.toContain(blogId);

    expect((await api('POST', `/moderation/users/${target.id}/unsuspend`, moderator.token, { reason: 'Appeal' })).statusCode).toBe(200);
    expect(ids((await hidden('users')).items)).not.toContain(target.id);
  });

  it('pages newest first without duplicates or gaps, and leaves out what is restored or deleted', async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const { blogId } = await createBlog(t, author, { title: `Paged ${i}` });
      await svc().setPostHidden(null, blogId, true, `r${i}`);
      made.push(blogId);
    }
    // One restored and one deleted after their hide: neither is listed.
    await svc().setPostHidden(null, made[2]!, false, 'restored');
    const del = await api('DELETE', `/blogs/${made[4]}`, author.token);
    expect(del.statusCode, del.body).toBe(200);
    const expected = made.filter((_, i) => i !== 2 && i !== 4).reverse();

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { items: HiddenItem[]; nextCursor: string | null } = await hidden(
        'posts',
        `&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...ids(page.items));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    expect(new Set(seen).size).toBe(seen.length);
    // Newest hide first: the seven come first, in reverse order of their hides, before older tests' posts.
    expect(seen.filter((id) => made.includes(id))).toEqual(expected);
    const all = (await hidden('posts', `&limit=${MAX_PAGE_LIMIT}`)).items;
    expect(seen).toEqual(ids(all));
    const times = all.map((i) => i.action.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('is for moderators and admins only: a reader gets 403, a visitor 401', async () => {
    const anon = await api('GET', '/moderation/hidden?kind=posts', null);
    expect(anon.statusCode).toBe(401);
    const res = await api('GET', '/moderation/hidden?kind=users', reader.token);
    expect([res.statusCode, res.json()]).toEqual([403, { success: false, message: 'Only moderators can do this' }]);
  });

  it.each([
    ['no kind', ''],
    ['an unknown kind', 'kind=blogs'],
    ['a cursor that is not one', 'kind=posts&cursor=garbage'],
    [
      'a cursor of another shape',
      `kind=posts&cursor=${Buffer.from(JSON.stringify(['2024-02-30T00:00:00.000Z', 'x'])).toString('base64url')}`,
    ],
    ['limit 0', 'kind=posts&limit=0'],
    ['limit 10^9', 'kind=posts&limit=1000000000'],
    ['a limit above the cap', `kind=comments&limit=${MAX_PAGE_LIMIT + 1}`],
    ['a limit that is not a number', 'kind=users&limit=ten'],
  ])('answers 400 with a message to %s', async (_, query) => {
    const res = await api('GET', `/moderation/hidden?${query}`, moderator.token);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: expect.stringMatching(/\S/) });
  });

  it('reads every list through indexes, from the first page and from a cursor', async () => {
    const cursor = Buffer.from(JSON.stringify(['2099-01-01T00:00:00.000Z', 'ffffffff-ffff-7fff-bfff-ffffffffffff'])).toString('base64url');
    for (const kind of ['posts', 'comments', 'users']) {
      for (const query of ['', `&cursor=${cursor}`]) {
        queries.length = 0;
        recording = true;
        await hidden(kind, query);
        recording = false;
        const list = queries.filter((q) => q.sql.includes('moderation_actions'));
        expect(list.length, kind).toBe(1);
        expect(await walks(list[0]!), `${kind}${query}`).toEqual([]);
      }
    }
  });

  it('is in the OpenAPI document with its kinds and page limit', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    const get = doc.paths['/api/v1/moderation/hidden']?.get;
    expect(get?.security).toEqual([{ bearerAuth: [] }]);
    const text = JSON.stringify(get);
    expect(text).toContain('"posts"');
    expect(text).toContain(`"maximum":${MAX_PAGE_LIMIT}`);
    expect(Object.keys(get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401']));
  });
});
