import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, ENGINE, sql, type TestApp, type TestUser } from '../../../test/helpers';
import { down, up } from '../../db/migrations/0021_search_docs';
import * as leanIndex from '../../db/migrations/0025_search_index_lean';
import * as recent from '../../db/migrations/0026_search_recent';
import { searchTerms } from './search.query';
import { SearchRepository } from './search.repo';

/** Ranking only the newest matches (a window of 3 here, 1000 in the app) must still reach every match. */
let t: TestApp;
let author: TestUser;
const titles: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t);
  // Oldest first; "Quokka" in the title of the 2nd and the 5th.
  const posts = [
    ['Alpha notes', 'quokka in the body only'],
    ['Quokka care', 'a body about quokkas'],
    ['Beta notes', 'quokkas again'],
    ['Gamma notes', 'yet another quokka'],
    ['Quokka photos', 'quokka pictures'],
    ['Delta notes', 'quokka at the end'],
    ['Draft notes', 'quokka draft'],
  ];
  for (const [title, body] of posts as [string, string][]) {
    await createBlog(t, author, {
      title,
      description: 'About animals',
      tags: ['animals'],
      content: { blocks: [{ type: 'paragraph', data: { text: body } }] },
      ...(title.startsWith('Draft') ? { draft: true } : {}),
    });
    titles.push(title);
  }
});
afterAll(async () => t.close());

async function all(repo: SearchRepository, query: string, limit: number) {
  const seen: string[] = [];
  for (let page = 0; page < 10; page++) {
    const rows = await repo.search(searchTerms(query), limit, page * limit);
    seen.push(...rows.slice(0, limit).map((r) => r.title));
    if (rows.length <= limit) break;
  }
  return seen;
}

/**
 * PostgreSQL walks the newest rows first and falls back to GIN plans (search_recent's when it
 * holds the span and the span is shorter than the table; else GIN alone when it finds few rows, or
 * ANDed with the span's dates) when the walk finds too few: each plan must give the same answers.
 * SQLite ignores the walk.
 */
const WALKS = [1, 2, 4, 1500];
/** Each walk with GIN's rows visited whole (few, as the tests' small tables are) and ANDed with the span's dates. */
const PLANS = WALKS.flatMap((walk) => [
  { walk, few: 3000 },
  { walk, few: 0 },
]);
/**
 * A span of 4 posts of the 6 published ones: PostgreSQL's short walks then read search_recent's
 * GIN (migration 0026). The ranked window of 3 is the same three newest matches either way.
 */
const SPANS = [...PLANS, ...WALKS.map((walk) => ({ walk, few: 0, span: 4 }))];

describe('search beyond the ranked window', () => {
  it.each(SPANS)(
    'ranks the newest matches, then lists the older ones newest first, each once (walk $walk, few $few, span $span)',
    async (plan) => {
      const repo = new SearchRepository(t.database.db, { window: 3, ...plan });
      // Newest three published matches: Delta, Quokka photos, Gamma; title matches first.
      const expected = ['Quokka photos', 'Delta notes', 'Gamma notes', 'Beta notes', 'Quokka care', 'Alpha notes'];
      for (const limit of [1, 2, 4, 10]) expect(await all(repo, 'quokka', limit), `limit ${limit}`).toEqual(expected);
      expect(await all(repo, 'quok', 2)).toEqual(expected);
    },
  );

  it.each(PLANS)('ranks every match when there are fewer than the window (walk $walk, few $few)', async (plan) => {
    const repo = new SearchRepository(t.database.db, { window: 100, ...plan });
    expect(await all(repo, 'quokka', 2)).toEqual([
      'Quokka photos',
      'Quokka care',
      'Delta notes',
      'Gamma notes',
      'Beta notes',
      'Alpha notes',
    ]);
  });
});

describe('several words that are rare together', () => {
  it('ranks a title match first however many rows lie between the matches', async () => {
    const post = (title: string, body: string) =>
      createBlog(t, author, {
        title,
        description: 'Marsupials',
        tags: ['marsupials'],
        content: { blocks: [{ type: 'paragraph', data: { text: body } }] },
      });
    await post('Koala wombat field notes', 'notes from the field');
    // Rows that hold one of the words only: the two matches are far apart (SQLite ranks such
    // sparse hits by following the whole match instead of each word's rows).
    for (let i = 0; i < 12; i++) await post(`Wombat diary ${i}`, 'a wombat day');
    await post('Burrow notes', 'a koala met a wombat');
    for (const plan of PLANS) {
      const repo = new SearchRepository(t.database.db, { window: 100, ...plan });
      const titles = (await repo.search(searchTerms('wombat koala'), 10, 0)).map((r) => r.title);
      expect(titles, JSON.stringify(plan)).toEqual(['Koala wombat field notes', 'Burrow notes']);
    }
  });
});

describe('the ranking columns follow every write', () => {
  const paragraph = (text: string) => ({ content: { blocks: [{ type: 'paragraph', data: { text } }] } });
  const search = async (q: string) =>
    (await t.app.inject({ url: `/api/v1/search-blogs?search=${encodeURIComponent(q)}&limit=10` }))
      .json()
      .blogs.map((b: { title: string }) => b.title);

  it('ranks by the edited title, tags and description, and forgets a deleted post', async () => {
    const older = await createBlog(t, author, {
      title: 'Older post',
      description: 'Plain',
      tags: ['misc'],
      ...paragraph('numbats everywhere'),
    });
    const newer = await createBlog(t, author, { title: 'Newer post', description: 'Plain', tags: ['misc'], ...paragraph('a numbat') });
    expect(await search('numbat')).toEqual(['Newer post', 'Older post']);
    const edit = (blogId: string, fields: object) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/blogs/${blogId}`,
        headers: bearer(author.token),
        payload: { tags: ['misc'], ...paragraph('numbat'), ...fields },
      });
    expect((await edit(older.blogId, { title: 'Numbats at dusk', description: 'Plain' })).statusCode).toBe(200);
    expect(await search('numbat')).toEqual(['Numbats at dusk', 'Newer post']);
    // Description (4) below tags (6) below title (10).
    await edit(newer.blogId, { title: 'Newer post', description: 'Numbat notes' });
    expect(await search('numbat')).toEqual(['Numbats at dusk', 'Newer post']);
    await edit(older.blogId, { title: 'Older post', description: 'Plain' });
    expect(await search('numbat')).toEqual(['Newer post', 'Older post']);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${newer.blogId}`, headers: bearer(author.token) });
    expect(await search('numbat')).toEqual(['Older post']);
  });

  it('is rebuilt by migrations 0021 and 0026 as the write path writes it', async () => {
    const db = t.database.db;
    const tables = ENGINE === 'sqlite' ? ['search_heads'] : ['search_docs', 'search_recent'];
    const read = async () =>
      Promise.all(
        tables.map(async (table) =>
          (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} ORDER BY 1`.execute(db)).rows.map((r) => JSON.stringify(r)),
        ),
      );
    const before = await read();
    expect(before[0]!.length).toBeGreaterThan(0);
    // 0026's table is filled from 0021's (a no-op on SQLite).
    await recent.down(db);
    await down(db);
    await up(db);
    await recent.up(db);
    expect(await read()).toEqual(before);
  });
});

describe('the ranked window reaches back over the newest posts only (the span)', () => {
  it.each(PLANS)(
    'ranks the matches among the newest posts, then lists every older one newest first (walk $walk, few $few)',
    async (plan) => {
      if (plan === PLANS[0]) {
        // Oldest first; the newest post does not match. Nothing else is written after these.
        const posts = ['Bilby burrows', 'Notes one', 'Notes two', 'Bilby tracks', 'Notes three', 'Unrelated'];
        for (const title of posts) {
          const text = title === 'Unrelated' ? 'nothing here' : 'a bilby';
          await createBlog(t, author, {
            title,
            description: 'Plain',
            tags: ['misc'],
            content: { blocks: [{ type: 'paragraph', data: { text } }] },
          });
        }
      }
      const search = (span: number, query = 'bilby') => all(new SearchRepository(t.database.db, { window: 100, span, ...plan }), query, 2);
      expect(await search(1000)).toEqual(['Bilby tracks', 'Bilby burrows', 'Notes three', 'Notes two', 'Notes one']);
      // The newest three posts hold two matches: those are ranked, the older three follow.
      expect(await search(3)).toEqual(['Bilby tracks', 'Notes three', 'Notes two', 'Notes one', 'Bilby burrows']);
      expect(await search(3, 'bil')).toEqual(['Bilby tracks', 'Notes three', 'Notes two', 'Notes one', 'Bilby burrows']);
      // None in the span: every match, newest first.
      expect(await search(1)).toEqual(['Notes three', 'Bilby tracks', 'Notes two', 'Notes one', 'Bilby burrows']);
      for (const limit of [1, 4, 10]) {
        expect(await all(new SearchRepository(t.database.db, { window: 100, span: 3, ...plan }), 'bilby', limit), `limit ${limit}`).toEqual(
          ['Bilby tracks', 'Notes three', 'Notes two', 'Notes one', 'Bilby burrows'],
        );
      }
    },
  );
});

describe('an index without positions (migration 0025)', () => {
  const search = async (q: string) => {
    const res = await t.app.inject({ url: `/api/v1/search-blogs?search=${encodeURIComponent(q)}&limit=10` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().blogs.map((b: { title: string }) => b.title);
  };

  it('finds a word SQLite cuts in two (a letter newer than its tables) as its parts, typed whole or as a prefix', async () => {
    // U+19B0 is a letter to JavaScript and a mark to SQLite's tokenizer: "kwa" and "mo" in the
    // index, one word in the query. Without positions that word cannot be a phrase.
    await createBlog(t, author, {
      title: 'Festival notes',
      description: 'Plain',
      tags: ['misc'],
      content: { blocks: [{ type: 'paragraph', data: { text: 'the kwa\u19b0mo festival' } }] },
    });
    expect(await search('kwa\u19b0mo')).toEqual(['Festival notes']);
    expect(await search('festival kwa\u19b0m')).toEqual(['Festival notes']);
    expect(await search('kwa\u19b0mo nowhere')).toEqual([]);
  });

  it('finds words of other scripts typed as written, on both engines: Korean, accented Greek, voiced kana, Hindi, Turkish İ', async () => {
    const words = ['한국어', 'σίσυφος', 'にほんご', 'हिन्दी', 'İstanbul'];
    await createBlog(t, author, {
      title: `${words.at(-1)} travel diary`,
      description: 'Plain',
      tags: ['misc'],
      content: { blocks: [{ type: 'paragraph', data: { text: `Words: ${words.slice(0, -1).join(' and ')}.` } }] },
    });
    for (const word of words) expect(await search(word), word).toEqual(['İstanbul travel diary']);
    // Typed in lower case, and as a prefix while typing.
    expect(await search('istanbul')).toEqual(['İstanbul travel diary']);
    expect(await search('travel 한국')).toEqual(['İstanbul travel diary']);
  });

  it('finds the words on each side of a line break (Shift+Enter in a paragraph, a list item or a quote)', async () => {
    await createBlog(t, author, {
      title: 'Line breaks',
      description: 'Plain',
      tags: ['misc'],
      content: {
        blocks: [
          { type: 'paragraph', data: { text: 'pangolin<br>armadillo' } },
          { type: 'list', data: { style: 'unordered', items: ['aardvark<br/>okapi'] } },
        ],
      },
    });
    for (const word of ['pangolin', 'armadillo', 'aardvark', 'okapi']) expect(await search(word), word).toEqual(['Line breaks']);
  });

  if (ENGINE !== 'sqlite') console.warn("SKIPPED on PostgreSQL: migration 0025 rebuilds only SQLite's FTS5 index.");
  it.skipIf(ENGINE !== 'sqlite')('answers the same before and after the rebuild', async () => {
    const queries = ['quokka', 'notes', 'wombat koala', 'bil', 'numbat', 'festival'];
    const before = await Promise.all(queries.map(search));
    await leanIndex.down(t.database.db);
    expect(await Promise.all(queries.map(search))).toEqual(before);
    await leanIndex.up(t.database.db);
    expect(await Promise.all(queries.map(search))).toEqual(before);
    const detail = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = 'blogs_fts'`.execute(t.database.db);
    expect(detail.rows[0]!.sql).toContain('detail = none');
  });

  it('keeps following writes', async () => {
    const post = await createBlog(t, author, {
      title: 'Echidna notes',
      description: 'Plain',
      tags: ['misc'],
      content: { blocks: [{ type: 'paragraph', data: { text: 'an echidna' } }] },
    });
    expect(await search('echidna')).toEqual(['Echidna notes']);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${post.blogId}`, headers: bearer(author.token) });
    expect(await search('echidna')).toEqual([]);
    expect(await search('echid')).toEqual([]);
  });
});
