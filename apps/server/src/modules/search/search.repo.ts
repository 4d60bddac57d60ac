import { type Kysely, type SqlBool, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';
import { isPubliclyVisible, publiclyVisibleSql } from '../../lib/policies';
import { type BlogCardRow, selectCard } from '../blogs/blogs.repo';
import { porterStem } from './porter';
import { FEW, PostgresSearch, type Sizes } from './search.postgres';
import { FTS_TEXT_OF_BLOG, foldWord, fts5Any, RANKED_SPAN, RANKED_WINDOW, stemsOf, vocabularyOf } from './search.query';

/** PostgreSQL: how many of the newest visible posts a search tests one by one before using GIN. */
const WALK = 8000;
/** Whole words a typed prefix stands for, at most (as search engines cap prefix expansion). */
const MAX_PREFIX_WORDS = 50;
/** bm25's column weights of the previous ranking; body matches count 1 through the base score. */
const WEIGHT = { title: 10, tags: 6, description: 4 } as const;

/** Cards of FTS rowids (a JSON array), SQLite: built and compiled once (a search's last statement). */
const cardsOfRowids = prepared((db, rowids: string) =>
  selectCard(db.selectFrom('blogs'))
    .select('blogs.search_rowid')
    .where(sql<SqlBool>`blogs.search_rowid IN (SELECT value FROM json_each(${rowids}))`),
);
/**
 * The newest FTS5 rowid; `max(rowid)` would read every row of the virtual table. (Numbers bound
 * from JavaScript are REAL to SQLite: a rowid bound must be CAST to INTEGER, or FTS5 ignores it.)
 */
const NEWEST_ROWID = sql`(SELECT rowid FROM blogs_fts ORDER BY rowid DESC LIMIT 1)`;
/** Next rowid of the connection's scratch tokenizer table (SearchRepository.tokenParts): one count for every repository. */
let scratchRow = 1;
/** Between the ranking columns' stems in one string (search_heads' title, tags, description). */
const HEADS_SEPARATOR = '\u0001';

/**
 * SQLite's ranking of a search's visible hits as bm25 weighed the columns (title 10, tags 6,
 * description 4, body 1), term by term, without bm25's scan of every match for document
 * frequencies: every hit holds every term somewhere (the base score), and a term (a group: the
 * last one is a prefix's words) found in a column adds that column's weight. The columns' terms are
 * stored stemmed as FTS5 stems them (porter.ts) and read as one string, the three columns in order
 * with HEADS_SEPARATOR between them: one search per term finds which columns hold it.
 */
function rankByColumns(hits: { rowid: number; heads: string | null }[], groups: string[][]): Map<number, number> {
  // Where a term next occurs at or after `from`, or -1: `indexOf` for a word, a regular expression
  // for a prefix's words. Terms are letters and digits (searchTerms); escaped all the same.
  const literal = (stem: string) => stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const finders = groups.map((group): ((text: string, from: number) => number) => {
    const stems = [...new Set(group.map(porterStem))];
    if (stems.length === 1) {
      const wanted = ` ${stems[0]} `;
      return (text, from) => text.indexOf(wanted, from);
    }
    const pattern = new RegExp(` (?:${stems.map(literal).join('|')}) `, 'gu');
    return (text, from) => {
      pattern.lastIndex = from;
      return pattern.exec(text)?.index ?? -1;
    };
  });
  const score = new Map<number, number>();
  for (const hit of hits) {
    let s = groups.length;
    const text = hit.heads;
    if (text) {
      const tagsAt = text.indexOf(HEADS_SEPARATOR);
      const descriptionAt = text.indexOf(HEADS_SEPARATOR, tagsAt + 1);
      for (const find of finders) {
        // Each column counts once per term: after a find, look on from the next column.
        let at = find(text, 0);
        if (at >= 0 && at < tagsAt) {
          s += WEIGHT.title;
          at = find(text, tagsAt);
        }
        if (at >= 0 && at < descriptionAt) {
          s += WEIGHT.tags;
          at = find(text, descriptionAt);
        }
        if (at >= 0) s += WEIGHT.description;
      }
    }
    score.set(hit.rowid, s);
  }
  return score;
}

/** The words of a document as the vocabulary keeps them (the same text the FTS row holds). */
function wordsOf(doc: SearchDocument): Set<string> {
  return vocabularyOf(`${doc.title} ${doc.description} ${doc.tags.join(' ')} ${doc.body}`);
}

export interface SearchDocument {
  title: string;
  description: string;
  tags: string[];
  body: string;
}

/**
 * The dialect seam for full-text search. PostgreSQL keeps its tsvector itself (a generated
 * column); SQLite's FTS5 rows are written here, in the caller's transaction.
 */
export class SearchRepository {
  private readonly pg: boolean;
  private readonly window: number;
  private readonly span: number;
  private readonly postgres: PostgresSearch;

  constructor(
    private readonly db: Kysely<Database>,
    /** Smaller sizes in tests, to reach the older matches and each PostgreSQL plan. */
    sizes: Partial<Sizes> = {},
  ) {
    this.pg = isPostgres(db);
    this.window = sizes.window ?? RANKED_WINDOW;
    this.span = sizes.span ?? RANKED_SPAN;
    this.postgres = new PostgresSearch(db, { window: this.window, span: this.span, walk: sizes.walk ?? WALK, few: sizes.few ?? FEW });
  }

  /** Indexes a new blog; returns the FTS rowid to store on the blog (null on PostgreSQL). */
  async index(doc: SearchDocument, published: boolean, db: Kysely<Database>): Promise<number | null> {
    if (this.pg) return null;
    const r =
      await sql`INSERT INTO blogs_fts (title, description, tags, body) VALUES (${doc.title}, ${doc.description}, ${doc.tags.join(' ')}, ${doc.body})`.execute(
        db,
      );
    const rowid = Number(r.insertId);
    await this.writeHeads(rowid, doc, db);
    if (published) await this.countWords(wordsOf(doc), new Set(), db);
    return rowid;
  }

  /**
   * Called before the blog row itself is updated: its stored draft flag is still the old one.
   * `newest`: the post's date has just moved to now (its first publication), so it takes a new,
   * highest rowid: on SQLite the rowid's order is the search's newest-first order (ties, the
   * ranked window and the older matches), as created_at is on PostgreSQL (its tables follow it).
   */
  async reindex(
    rowid: number | null,
    doc: SearchDocument,
    published: boolean,
    db: Kysely<Database>,
    { newest = false } = {},
  ): Promise<number | null> {
    if (this.pg) return null;
    if (rowid !== null && newest) await this.remove(rowid, db);
    if (rowid === null || newest) return this.index(doc, published, db);
    const before = await this.publishedWords(rowid, db);
    await sql`UPDATE blogs_fts SET title = ${doc.title}, description = ${doc.description}, tags = ${doc.tags.join(' ')}, body = ${doc.body} WHERE rowid = ${rowid}`.execute(
      db,
    );
    await this.writeHeads(rowid, doc, db);
    await this.countWords(published ? wordsOf(doc) : new Set(), before, db);
    return rowid;
  }

  /** Called before the blog row is deleted. */
  async remove(rowid: number | null, db: Kysely<Database>): Promise<void> {
    if (this.pg || rowid === null) return;
    const before = await this.publishedWords(rowid, db);
    await sql`DELETE FROM blogs_fts WHERE rowid = ${rowid}`.execute(db);
    await sql`DELETE FROM search_heads WHERE rowid = ${rowid}`.execute(db);
    await this.countWords(new Set(), before, db);
  }

  /** The ranking columns' terms of an FTS5 row (SQLite; see searchSqlite). */
  private async writeHeads(rowid: number, doc: SearchDocument, db: Kysely<Database>) {
    await sql`INSERT OR REPLACE INTO search_heads (rowid, title, tags, description)
      VALUES (${rowid}, ${stemsOf(doc.title)}, ${stemsOf(doc.tags.join(' '))}, ${stemsOf(doc.description)})`.execute(db);
  }

  /** The words a blog contributes to the vocabulary now: its indexed text if published, else none. */
  private async publishedWords(rowid: number, db: Kysely<Database>): Promise<Set<string>> {
    // The index keeps no text (migration 0025): the blog row holds what was indexed, still unchanged here.
    const { rows } = await sql<{ draft: number; creator_id: string | null } & Record<'title' | 'description' | 'tags' | 'body', string>>`
      SELECT blogs.draft, blogs.creator_id, ${sql.raw(FTS_TEXT_OF_BLOG)} FROM blogs WHERE blogs.search_rowid = ${rowid}`.execute(db);
    const blog = rows[0];
    // The vocabulary follows the stored draft flag, as callers pass `published`: a hidden post keeps
    // its words (they only expand prefixes; every result is filtered by publiclyVisibleSql), so
    // hiding and restoring never have to rewrite the counts.
    if (!blog || !isPubliclyVisible({ ...blog, hidden: 0 })) return new Set();
    return vocabularyOf(`${blog.title} ${blog.description} ${blog.tags ?? ''} ${blog.body}`);
  }

  /**
   * The vocabulary counts, per word, the published blogs that use it; a word leaves when its last
   * published use goes. Only the difference between a blog's old and new words is written.
   */
  private async countWords(after: Set<string>, before: Set<string>, db: Kysely<Database>) {
    const added = [...after].filter((w) => !before.has(w));
    const gone = [...before].filter((w) => !after.has(w));
    if (added.length) {
      await sql`INSERT INTO search_words (word, uses) SELECT value, 1 FROM json_each(${JSON.stringify(added)}) WHERE true
        ON CONFLICT (word) DO UPDATE SET uses = uses + 1`.execute(db);
    }
    if (gone.length) {
      const list = JSON.stringify(gone);
      await sql`UPDATE search_words SET uses = uses - 1 WHERE word IN (SELECT value FROM json_each(${list}))`.execute(db);
      await sql`DELETE FROM search_words WHERE uses <= 0 AND word IN (SELECT value FROM json_each(${list}))`.execute(db);
    }
  }

  /**
   * Published blogs matching every term (the last one as a prefix), best first; one extra row
   * for hasMore.
   *
   * Ranking every match does not scale: at 1M posts a common word matches most of them, and
   * bm25 / ts_rank_cd over all of them takes seconds. So the newest RANKED_WINDOW matches among the
   * newest RANKED_SPAN posts are ranked, and older matches follow them, newest first. Every match is
   * still reachable page by page, in a stable order; on a site of fewer than RANKED_SPAN posts, a
   * query of fewer than RANKED_WINDOW matches has all of them ranked.
   */
  search(terms: string[], limit: number, offset: number) {
    return this.pg ? this.postgres.search(terms, limit, offset) : this.searchSqlite(terms, limit, offset);
  }

  private async searchSqlite(terms: string[], limit: number, offset: number): Promise<BlogCardRow[]> {
    const last = foldWord(terms[terms.length - 1]!);
    // The prefix as whole words from the vocabulary (the word itself too, should it be missing there).
    // The vocabulary holds only words of published blogs, so neither the words nor the cap on
    // them depend on drafts or on deleted accounts.
    const expanded = await sql<{ word: string }>`SELECT word FROM search_words WHERE word >= ${last} AND word < ${`${last}\uffff`}
      ORDER BY word LIMIT ${MAX_PREFIX_WORDS}`.execute(this.db);
    const lastWords = [last, ...expanded.rows.map((r) => r.word).filter((w) => w !== last)];
    const groups = [...terms.slice(0, -1).map((t) => [foldWord(t)]), lastWords];
    let match = groups.map((g) => fts5Any(g)).join(' AND ');

    // The newest matches among the newest `span` rows, drafts included (FTS5 reads them newest
    // first and stops), in the same statement as whether each is publicly visible (a covering
    // index) and, for the visible ones, the stems of the columns that weigh in the ranking
    // (search_heads, a small row per post written beside its FTS5 row).
    const newest = (expression: string) =>
      sql<{ rowid: number; bound: number; visible: number | null; heads: string | null }>`
      SELECT f.rowid, f.bound, ${publiclyVisibleSql('b')} AS visible,
        h.title || ${HEADS_SEPARATOR} || h.tags || ${HEADS_SEPARATOR} || h.description AS heads
      FROM (SELECT rowid, ${NEWEST_ROWID} - CAST(${this.span} AS INTEGER) AS bound FROM blogs_fts
        WHERE blogs_fts MATCH ${expression} AND rowid > ${NEWEST_ROWID} - CAST(${this.span} AS INTEGER)
        ORDER BY rowid DESC LIMIT ${this.window}) f
      LEFT JOIN blogs b ON b.search_rowid = f.rowid
      LEFT JOIN search_heads h ON h.rowid = f.rowid AND ${publiclyVisibleSql('b')}`.execute(this.db);
    let hits: Awaited<ReturnType<typeof newest>>['rows'];
    try {
      hits = (await newest(match)).rows;
    } catch (err) {
      // A word SQLite's tokenizer splits (letters newer than its Unicode tables) is a phrase,
      // which the index cannot answer: search its parts instead. Rare, so found by the error.
      if (!(err instanceof Error && err.message.includes('phrase queries are not supported'))) throw err;
      const parts = await this.tokenParts(groups.flat());
      match = groups.map((g) => fts5Any(g, parts)).join(' AND ');
      hits = (await newest(match)).rows;
    }
    const visible = hits.filter((h) => h.visible);
    const scores = rankByColumns(visible, groups);
    const order = visible.map((r) => r.rowid).sort((a, b) => scores.get(b)! - scores.get(a)! || b - a);
    const pageIds = order.slice(offset, offset + limit + 1);
    const ranked = pageIds.length ? await this.cardsByRowid(pageIds) : [];
    if (ranked.length > limit) return ranked;
    // Past the ranked window: the older matches, newest first. The window ends at its lowest hit
    // when full, else at the span's edge (nothing lies below it when the span covers every row).
    let edge = hits.length === this.window ? hits[hits.length - 1]!.rowid : hits.length ? hits[0]!.bound + 1 : null;
    if (edge === null) {
      const { rows } = await sql<{ top: number | null }>`SELECT ${NEWEST_ROWID} AS top`.execute(this.db);
      edge = (rows[0]?.top ?? 0) - this.span + 1;
    }
    if (edge <= 1) return ranked;
    const older = await selectCard(this.db.selectFrom('blogs'))
      .innerJoin(
        sql<{
          rowid: number;
        }>`(SELECT rowid FROM blogs_fts WHERE blogs_fts MATCH ${match} AND rowid < CAST(${edge} AS INTEGER) ORDER BY rowid DESC)`.as(
          'older',
        ),
        (j) => j.onRef('older.rowid', '=', 'blogs.search_rowid'),
      )
      .where(publiclyVisibleSql('blogs'))
      .orderBy(sql`older.rowid`, 'desc')
      .limit(limit + 1 - ranked.length)
      .offset(Math.max(0, offset - order.length))
      .execute();
    return [...ranked, ...older];
  }

  /**
   * The words (among these) that SQLite's tokenizer cuts into several tokens, with their tokens,
   * from the tokenizer itself: a scratch FTS5 table on this connection and its vocabulary.
   */
  private async tokenParts(words: string[]): Promise<Map<string, string[]>> {
    const unusual = [...new Set(words)].filter((w) => !/^[a-z0-9]*$/.test(w));
    if (!unusual.length) return new Map();
    await sql`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_tokenizer USING fts5(word, tokenize = 'unicode61 remove_diacritics 2')`.execute(
      this.db,
    );
    await sql`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_tokens USING fts5vocab(temp, search_tokenizer, instance)`.execute(this.db);
    // Rows of their own (concurrent searches interleave between these statements), removed after.
    const first = scratchRow;
    scratchRow += unusual.length;
    const rows = unusual.map((word, i) => [first + i, word]);
    await sql`INSERT INTO temp.search_tokenizer (rowid, word) SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify(rows)})`.execute(
      this.db,
    );
    try {
      const { rows: tokens } = await sql<{ doc: number; term: string }>`SELECT doc, term FROM temp.search_tokens
        WHERE doc >= ${first} AND doc < ${first + unusual.length} ORDER BY doc, offset`.execute(this.db);
      const parts = new Map<string, string[]>();
      for (const { doc, term } of tokens) {
        const word = unusual[doc - first]!;
        parts.set(word, [...(parts.get(word) ?? []), term]);
      }
      return parts;
    } finally {
      await sql`DELETE FROM temp.search_tokenizer WHERE rowid >= ${first} AND rowid < ${first + unusual.length}`.execute(this.db);
    }
  }

  private async cardsByRowid(rowids: number[]): Promise<BlogCardRow[]> {
    const { rows } = await cardsOfRowids(this.db, JSON.stringify(rowids));
    const byRowid = new Map(rows.map((r) => [r.search_rowid, r]));
    // The rows as read (search_rowid rides along unused: the presenter picks its fields; copying
    // each row without it cost more than the query's JavaScript).
    return rowids.flatMap((id) => byRowid.get(id) ?? []);
  }
}
