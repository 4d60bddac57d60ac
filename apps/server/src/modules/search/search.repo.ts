import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { isPubliclyVisible, publiclyVisibleSql } from '../../lib/policies';
import { type BlogCardRow, selectCard } from '../blogs/blogs.repo';
import { foldWord, fts5Any, toTsQuery, vocabularyOf } from './search.query';

/**
 * How many of a query's newest matches are ranked by relevance; older ones follow, newest first.
 * Ranking costs per candidate (PostgreSQL reads each tsvector from TOAST twice, to match and to
 * rank, ~8 µs a row; SQLite ~2 µs plus the column checks): 200 keeps a search near 1-2 ms.
 */
export const RANKED_WINDOW = 200;
/** Whole words a typed prefix stands for, at most (as search engines cap prefix expansion). */
const MAX_PREFIX_WORDS = 50;
/** Hits spread over more rows than this many per hit are ranked by following the whole match. */
const SPARSE_SPAN = 4;
/** bm25's column weights of the previous ranking; body matches count 1 through the base score. */
const COLUMN_WEIGHTS: [string, number][] = [
  ['title', 10],
  ['tags', 6],
  ['description', 4],
];

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

  constructor(
    private readonly db: Kysely<Database>,
    /** How many of the newest matches are ranked (smaller in tests, to reach the older ones). */
    window?: number,
  ) {
    this.pg = isPostgres(db);
    this.window = window ?? RANKED_WINDOW;
  }

  /** Indexes a new blog; returns the FTS rowid to store on the blog (null on PostgreSQL). */
  async index(doc: SearchDocument, published: boolean, db: Kysely<Database>): Promise<number | null> {
    if (this.pg) return null;
    const r =
      await sql`INSERT INTO blogs_fts (title, description, tags, body) VALUES (${doc.title}, ${doc.description}, ${doc.tags.join(' ')}, ${doc.body})`.execute(
        db,
      );
    if (published) await this.countWords(wordsOf(doc), new Set(), db);
    return Number(r.insertId);
  }

  /** Called before the blog row itself is updated: its stored draft flag is still the old one. */
  async reindex(rowid: number | null, doc: SearchDocument, published: boolean, db: Kysely<Database>): Promise<number | null> {
    if (this.pg) return null;
    if (rowid === null) return this.index(doc, published, db);
    const before = await this.publishedWords(rowid, db);
    await sql`UPDATE blogs_fts SET title = ${doc.title}, description = ${doc.description}, tags = ${doc.tags.join(' ')}, body = ${doc.body} WHERE rowid = ${rowid}`.execute(
      db,
    );
    await this.countWords(published ? wordsOf(doc) : new Set(), before, db);
    return rowid;
  }

  /** Called before the blog row is deleted. */
  async remove(rowid: number | null, db: Kysely<Database>): Promise<void> {
    if (this.pg || rowid === null) return;
    const before = await this.publishedWords(rowid, db);
    await sql`DELETE FROM blogs_fts WHERE rowid = ${rowid}`.execute(db);
    await this.countWords(new Set(), before, db);
  }

  /** The words a blog contributes to the vocabulary now: its indexed text if published, else none. */
  private async publishedWords(rowid: number, db: Kysely<Database>): Promise<Set<string>> {
    const blog = await db.selectFrom('blogs').select(['draft', 'creator_id']).where('search_rowid', '=', rowid).executeTakeFirst();
    // The vocabulary follows the stored draft flag, as callers pass `published`: a hidden post keeps
    // its words (they only expand prefixes; every result is filtered by publiclyVisibleSql), so
    // hiding and restoring never have to rewrite the counts.
    if (!blog || !isPubliclyVisible({ ...blog, hidden: 0 })) return new Set();
    const { rows } = await sql<SearchDocument & { tags: string }>`SELECT title, description, tags, body FROM blogs_fts
      WHERE rowid = ${rowid}`.execute(db);
    const row = rows[0];
    return row ? vocabularyOf(`${row.title} ${row.description} ${row.tags} ${row.body}`) : new Set();
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
   * bm25 / ts_rank_cd over all of them takes seconds. So the newest RANKED_WINDOW matches are
   * ranked, and older matches follow them, newest first. Every match is still reachable page by
   * page, in a stable order; below RANKED_WINDOW matches (any rare query) all of them are ranked.
   */
  search(terms: string[], limit: number, offset: number) {
    return this.pg ? this.searchPostgres(terms, limit, offset) : this.searchSqlite(terms, limit, offset);
  }

  private async searchPostgres(terms: string[], limit: number, offset: number): Promise<BlogCardRow[]> {
    const query = sql`to_tsquery('english', ${toTsQuery(terms)})`;
    // The newest matches: the planner walks the feed index newest first and tests each row when
    // the words are common, or reads the GIN index when they are rare.
    const ranked = await selectCard(this.db.selectFrom('blogs'))
      .innerJoin(
        sql<{ id: string; rank: number }>`(SELECT id, ts_rank_cd(search_vector, ${query}) AS rank FROM blogs
          WHERE ${publiclyVisibleSql('blogs')} AND search_vector @@ ${query} ORDER BY created_at DESC, id DESC LIMIT ${this.window})`.as(
          'hits',
        ),
        (j) => j.onRef('hits.id', '=', 'blogs.id'),
      )
      .orderBy(sql`hits.rank`, 'desc')
      .orderBy('blogs.created_at', 'desc')
      .orderBy('blogs.id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    if (ranked.length > limit || offset + ranked.length < this.window) return ranked;
    // Past the ranked window: the older matches, newest first.
    const edge = await this.db
      .selectFrom('blogs')
      .select(['created_at', 'id'])
      .where(publiclyVisibleSql('blogs'))
      .where(sql<boolean>`search_vector @@ ${query}`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(this.window - 1)
      .limit(1)
      .executeTakeFirst();
    if (!edge) return ranked;
    const older = await selectCard(this.db.selectFrom('blogs'))
      .where(publiclyVisibleSql('blogs'))
      .where(sql<boolean>`blogs.search_vector @@ ${query}`)
      .where(sql<boolean>`(blogs.created_at, blogs.id) < (${edge.created_at}, ${edge.id})`)
      .orderBy('blogs.created_at', 'desc')
      .orderBy('blogs.id', 'desc')
      .limit(limit + 1 - ranked.length)
      .offset(Math.max(0, offset - this.window))
      .execute();
    return [...ranked, ...older];
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
    const match = groups.map(fts5Any).join(' AND ');

    // The newest matches, drafts included (FTS5 reads them newest first and stops).
    const { rows: hits } = await sql<{ rowid: number }>`SELECT rowid FROM blogs_fts WHERE blogs_fts MATCH ${match}
      ORDER BY rowid DESC LIMIT ${this.window}`.execute(this.db);
    if (!hits.length) return [];
    const lowest = hits[hits.length - 1]!.rowid;
    const highest = hits[0]!.rowid;

    // Rank them as bm25 weighs the columns (title 10, tags 6, description 4, body 1), term by term,
    // without bm25's scan of every match for document frequencies.
    // When the words are rare together, the hits are spread over many rows: a column check alone
    // would read its word's entries for every row from the lowest hit up (tens of ms at 1M).
    // Tied to the whole match, the rarest word leads and the others skip ahead to its rows.
    const sparse = highest - lowest + 1 > SPARSE_SPAN * hits.length;
    const within = sparse ? ` AND (${match})` : '';
    const score = new Map<number, number>(hits.map((h) => [h.rowid, groups.length]));
    const boosts = groups.flatMap((g) =>
      COLUMN_WEIGHTS.map(([column, weight]) => ({ expr: `({${column}} : ${fts5Any(g)})${within}`, weight })),
    );
    const boosted = await sql<{ rowid: number; weight: number }>`${sql.join(
      boosts.map(
        (b) =>
          sql`SELECT rowid, ${b.weight} AS weight FROM blogs_fts WHERE blogs_fts MATCH ${b.expr} AND rowid >= CAST(${lowest} AS INTEGER)`,
      ),
      sql` UNION ALL `,
    )}`.execute(this.db);
    for (const b of boosted.rows) if (score.has(b.rowid)) score.set(b.rowid, score.get(b.rowid)! + b.weight);

    const published = await sql<{ search_rowid: number }>`SELECT search_rowid FROM blogs
      WHERE search_rowid IN (SELECT value FROM json_each(${JSON.stringify(hits.map((h) => h.rowid))})) AND ${publiclyVisibleSql('blogs')}`.execute(
      this.db,
    );
    const order = published.rows.map((r) => r.search_rowid).sort((a, b) => score.get(b)! - score.get(a)! || b - a);
    const pageIds = order.slice(offset, offset + limit + 1);
    const ranked = pageIds.length ? await this.cardsByRowid(pageIds) : [];
    if (ranked.length > limit || hits.length < this.window) return ranked;

    // Past the ranked window: the older matches, newest first.
    const older = await selectCard(this.db.selectFrom('blogs'))
      .innerJoin(
        sql<{
          rowid: number;
        }>`(SELECT rowid FROM blogs_fts WHERE blogs_fts MATCH ${match} AND rowid < CAST(${lowest} AS INTEGER) ORDER BY rowid DESC)`.as(
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

  private async cardsByRowid(rowids: number[]): Promise<BlogCardRow[]> {
    const rows = await selectCard(this.db.selectFrom('blogs'))
      .select('blogs.search_rowid')
      .where('blogs.search_rowid', 'in', rowids)
      .execute();
    const byRowid = new Map(rows.map((r) => [r.search_rowid, r]));
    return rowids.flatMap((id) => {
      const row = byRowid.get(id);
      if (!row) return [];
      const { search_rowid: _, ...card } = row;
      return [card];
    });
  }
}
