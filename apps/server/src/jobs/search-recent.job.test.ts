import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { bearer, createTestApp, createUser, ENGINE, sql, type TestApp, type TestUser } from '../../test/helpers';
import { searchTerms } from '../modules/search/search.query';
import { SearchRepository } from '../modules/search/search.repo';
import type { JobContext } from './scheduler';
import { searchRecentUpkeep } from './search-recent.job';

/**
 * PostgreSQL's search_recent (migration 0026): the newest posts' search rows with their own GIN
 * index. Kept by a trigger on search_docs and sized by the `search-recent` job; a search reads it
 * only while it holds the whole span, and answers the same either way.
 */
let t: TestApp;
let author: TestUser;
const SPAN = 4;
const MARGIN = 2;
const ctx: JobContext = { keepGoing: async () => true } as JobContext;
const pg = ENGINE === 'postgres';
console.warn(
  pg
    ? 'search-recent.job.test: the SQLite no-op case is skipped on PostgreSQL'
    : 'search-recent.job.test: search_recent is PostgreSQL only; on SQLite only the no-op case runs',
);

beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t);
});
afterAll(async () => t.close());

const post = (title: string, body: string) =>
  createBlog(t, author, {
    title,
    description: 'Birds',
    tags: ['birds'],
    content: { blocks: [{ type: 'paragraph', data: { text: body } }] },
  });
/** search_recent's and search_docs' blog ids, newest first. */
const rows = async (table: 'search_recent' | 'search_docs') =>
  (
    await sql<{ blog_id: string }>`SELECT blog_id FROM ${sql.table(table)} ORDER BY created_at DESC, blog_id DESC`.execute(t.database.db)
  ).rows.map((r) => r.blog_id);
/** A search's titles through a new repository (each reads search_recent's state afresh), with a span of SPAN. */
const titles = async (query: string) =>
  (await new SearchRepository(t.database.db, { window: 10, span: SPAN, walk: 1 }).search(searchTerms(query), 20, 0)).map((r) => r.title);

describe('search-recent job', () => {
  it.skipIf(pg)('does nothing on SQLite', async () => {
    expect(await searchRecentUpkeep(t.database.db, SPAN, MARGIN)(ctx)).toBeUndefined();
  });

  it.skipIf(!pg)('keeps the newest span + margin rows, follows every write to them, and tops up after deletions', async () => {
    const made = [];
    for (let i = 0; i < 9; i++) made.push(await post(`Kiwi note ${i}`, i % 2 ? 'a kiwi and a tui' : 'a kiwi'));
    const ids = made.map((b) => b._id).reverse(); // newest first
    expect(await rows('search_recent')).toEqual(await rows('search_docs'));

    // The job trims to the newest SPAN + MARGIN.
    expect(await searchRecentUpkeep(t.database.db, SPAN, MARGIN)(ctx)).toEqual({ added: 0, removed: 3 });
    expect(await rows('search_recent')).toEqual(ids.slice(0, SPAN + MARGIN));
    expect(await searchRecentUpkeep(t.database.db, SPAN, MARGIN)(ctx)).toEqual({ added: 0, removed: 0 });

    // A new post goes in; an edit of a post it holds is followed; an edit of an older one stays out.
    const newest = await post('Kea note', 'a kea and a kiwi');
    expect((await rows('search_recent'))[0]).toBe(newest._id);
    const edit = (blogId: string, title: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/blogs/${blogId}`,
        headers: bearer(author.token),
        payload: { title, description: 'Birds', tags: ['birds'], content: { blocks: [{ type: 'paragraph', data: { text: 'a kakapo' } }] } },
      });
    expect((await edit(newest.blogId, 'Kakapo note')).statusCode).toBe(200);
    const { rows: words } = await sql<{ words: string }>`SELECT words::text FROM search_recent WHERE blog_id = ${newest._id}`.execute(
      t.database.db,
    );
    expect(words[0]!.words).toContain("'kakapo'");
    expect((await edit(made[0]!.blogId, 'Kakapo too')).statusCode).toBe(200);
    expect(await rows('search_recent')).not.toContain(made[0]!._id);

    // Hidden (by any write, an operator's SQL too) and deleted posts leave it.
    await sql`UPDATE blogs SET hidden = 1 WHERE id = ${ids[0]!}`.execute(t.database.db);
    expect(await rows('search_recent')).not.toContain(ids[0]);
    await sql`UPDATE blogs SET hidden = 0 WHERE id = ${ids[0]!}`.execute(t.database.db);
    expect(await rows('search_recent')).toContain(ids[0]);

    // Deleting most of the newest leaves part of the span out of search_recent: searches read
    // search_docs meanwhile and answer as before; the job tops it up.
    const before = await titles('kiwi');
    for (const b of [newest, made[8]!, made[7]!, made[6]!]) {
      expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${b.blogId}`, headers: bearer(author.token) })).statusCode).toBe(
        200,
      );
    }
    const docs = await rows('search_docs');
    expect((await rows('search_recent')).slice(0, SPAN)).not.toEqual(docs.slice(0, SPAN));
    const deleted = new Set(['Kiwi note 8', 'Kiwi note 7', 'Kiwi note 6']);
    expect(await titles('kiwi')).toEqual(before.filter((title) => !deleted.has(title)));
    const report = await searchRecentUpkeep(t.database.db, SPAN, MARGIN)(ctx);
    expect(report?.added).toBeGreaterThan(0);
    expect(await rows('search_recent')).toEqual(docs.slice(0, SPAN + MARGIN));
    expect(await titles('kiwi')).toEqual(before.filter((title) => !deleted.has(title)));
  });
});
