import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { isPubliclyVisible, publiclyVisibleSql } from '../../lib/policies';
import { type BlogCardRow, selectCard } from '../blogs/blogs.repo';
import { porterStem } from './porter';
import { foldWord, fts5Any, stemsOf, toTsQuery, vocabularyOf } from './search.query';

/**
 * How many of a query's newest matches are ranked by relevance; older ones follow, newest first.
 * Ranking costs per candidate (SQLite tokenizes and stems the hit's title, tags and description,
 * PostgreSQL tests three small vectors per term): 200 keeps it well under a millisecond.
 */
export const RANKED_WINDOW = 200;
/** PostgreSQL: how many of the newest visible posts a search tests one by one before using GIN. */
const WALK = 8000;
/** PostgreSQL: how many of the newest posts tell how common each term is, when the walk falls short. */
const SAMPLE = 400;
/** PostgreSQL: a term in more of the sampled posts than this is tested on rows rather than read from GIN. */
const RARE_SHARE = 0.3;
/** PostgreSQL: the widest date range (in posts) worth ANDing with GIN; a bitmap of it costs ~0.13 µs a post. */
const MAX_SPAN = 60_000;
/** Whole words a typed prefix stands for, at most (as search engines cap prefix expansion). */
const MAX_PREFIX_WORDS = 50;
/** bm25's column weights of the previous ranking; body matches count 1 through the base score. */
const COLUMN_WEIGHTS: ['title' | 'tags' | 'description', number][] = [
  ['title', 10],
  ['tags', 6],
  ['description', 4],
];

const time = (d: Date | string) => (d instanceof Date ? d.getTime() : Date.parse(d));

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
  private readonly walk: number;

  constructor(
    private readonly db: Kysely<Database>,
    /** How many of the newest matches are ranked (smaller in tests, to reach the older ones). */
    window?: number,
    /** PostgreSQL: rows tested one by one before the GIN plans (smaller in tests, to reach those). */
    walk?: number,
  ) {
    this.pg = isPostgres(db);
    this.window = window ?? RANKED_WINDOW;
    this.walk = walk ?? WALK;
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

  /** Called before the blog row itself is updated: its stored draft flag is still the old one. */
  async reindex(rowid: number | null, doc: SearchDocument, published: boolean, db: Kysely<Database>): Promise<number | null> {
    if (this.pg) return null;
    if (rowid === null) return this.index(doc, published, db);
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

  /**
   * PostgreSQL reads `search_docs` (migration 0021): one narrow row per publicly visible blog, so
   * neither plan touches the wide blogs rows or their TOASTed vectors. The newest matches come from
   * one of two plans, chosen by what a short walk finds rather than by the planner's guess (which
   * is wrong when the words are rare together):
   * - a walk of the newest WALK rows, testing each (common words: the window fills within it);
   * - else the GIN index ANDed with a date range sized from the walk's hit rate (bitmap of both
   *   indexes, heap visits only for the matches in range), and without the range if that is short.
   * Ranked as on SQLite: each term adds 10 in the title, 6 in the tags, 4 in the description.
   */
  private async searchPostgres(terms: string[], limit: number, offset: number): Promise<BlogCardRow[]> {
    const query = sql`to_tsquery('english', ${toTsQuery(terms)})`;
    const last = terms.length - 1;
    const termQueries = terms.map((t, i) => sql`to_tsquery('english', ${i === last ? `${t}:*` : t})`);
    const score = sql<number>`${terms.length}${sql.join(
      termQueries.map((q) => sql` + 10 * (title_words @@ ${q})::int + 6 * (tag_words @@ ${q})::int + 4 * (description_words @@ ${q})::int`),
      sql``,
    )}`;
    type Hit = { blog_id: string; created_at: Date | string; score: number };
    const walk = this.walk;
    let { rows: hits } = await sql<Hit>`SELECT blog_id, created_at, ${score} AS score
      FROM (SELECT * FROM search_docs ORDER BY created_at DESC, blog_id DESC LIMIT ${walk}) newest
      WHERE words @@ ${query} ORDER BY created_at DESC, blog_id DESC LIMIT ${this.window}`.execute(this.db);
    if (hits.length < this.window) {
      // Which terms GIN should read: its cost follows their posting lists (a prefix term's are read
      // whole: GIN cannot skip through a partial match). So GIN gets the terms that are rare among
      // the newest posts (all of them if none is), and the others are tested on the rows it finds.
      const { rows: stats } = await sql<Record<string, number | string>>`SELECT ${sql.join(
        termQueries.map((q, i) => sql`count(*) FILTER (WHERE words @@ ${q}) AS ${sql.raw(`c${i}`)}, numnode(${q}) AS ${sql.raw(`n${i}`)}`),
      )} FROM (SELECT words FROM search_docs ORDER BY created_at DESC, blog_id DESC LIMIT ${SAMPLE}) sample`.execute(this.db);
      const usable = terms.map((_, i) => i).filter((i) => Number(stats[0]?.[`n${i}`]) > 0);
      const rare = usable.filter((i) => Number(stats[0]?.[`c${i}`]) <= RARE_SHARE * SAMPLE);
      const chosen = rare.length ? rare : usable;
      const ginQuery = sql`to_tsquery('english', ${chosen.map((i) => (i === last ? `${terms[i]}:*` : terms[i])).join(' & ') || terms[last]!})`;
      // The whole query as a function call is not an index condition: it filters GIN's rows.
      const where = chosen.length < usable.length ? sql`${ginQuery} AND ts_match_vq(words, ${query})` : query;
      // Rows to cover for the window at the walk's hit rate, twice over (GIN ANDed with that date
      // range visits only the matches in it); past MAX_SPAN the matches are few: all of them.
      const span = Math.ceil((2 * this.window * walk) / Math.max(1, hits.length));
      const since =
        span <= MAX_SPAN
          ? await sql<{ created_at: Date | string }>`SELECT created_at FROM search_docs
        ORDER BY created_at DESC, blog_id DESC OFFSET ${span - 1} LIMIT 1`.execute(this.db)
          : { rows: [] };
      const from = since.rows[0]?.created_at;
      if (from) hits = await this.gin(sql`${where} AND created_at >= ${from}`, score, this.window);
      if (!from || hits.length < this.window) hits = await this.gin(where, score, this.window);
    }
    if (!hits.length) return [];
    const order = hits
      .slice()
      .sort((a, b) => b.score - a.score || time(b.created_at) - time(a.created_at) || (a.blog_id < b.blog_id ? 1 : -1))
      .map((h) => h.blog_id);
    const pageIds = order.slice(offset, offset + limit + 1);
    const ranked = pageIds.length ? await this.cardsById(pageIds) : [];
    if (ranked.length > limit || hits.length < this.window) return ranked;

    // Past the ranked window: the older matches, newest first.
    const edge = hits[hits.length - 1]!;
    const { rows: older } = await sql<{ blog_id: string }>`SELECT blog_id FROM search_docs WHERE words @@ ${query}
      AND (created_at, blog_id) < (${edge.created_at}, ${edge.blog_id}) ORDER BY created_at DESC, blog_id DESC
      LIMIT ${limit + 1 - ranked.length} OFFSET ${Math.max(0, offset - order.length)}`.execute(this.db);
    return [...ranked, ...(older.length ? await this.cardsById(older.map((r) => r.blog_id)) : [])];
  }

  /**
   * The newest matches through the GIN index. The matches are a subquery behind `OFFSET 0`, planned
   * for all its rows, so the planner cannot turn it back into a walk on a misestimate. (Not a
   * `WITH … MATERIALIZED` CTE: db/write-watch.ts counts raw SQL starting with WITH as a write.)
   */
  private async gin(where: RawBuilder<unknown>, score: RawBuilder<number>, count: number) {
    const { rows } = await sql<{ blog_id: string; created_at: Date | string; score: number }>`SELECT * FROM (
        SELECT blog_id, created_at, ${score} AS score FROM search_docs WHERE words @@ ${where} OFFSET 0) matches
      ORDER BY created_at DESC, blog_id DESC LIMIT ${count}`.execute(this.db);
    return rows;
  }

  /** Cards of publicly visible blogs, in the order of `ids`. */
  private async cardsById(ids: string[]): Promise<BlogCardRow[]> {
    const rows = await selectCard(this.db.selectFrom('blogs')).where('blogs.id', 'in', ids).where(publiclyVisibleSql('blogs')).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    });
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

    // The publicly visible ones, with the stems of the columns that weigh in the ranking
    // (search_heads, a small row per post written beside its FTS5 row).
    const { rows: visible } = await sql<{ rowid: number; title: string | null; tags: string | null; description: string | null }>`
      SELECT b.search_rowid AS rowid, h.title, h.tags, h.description FROM blogs b LEFT JOIN search_heads h ON h.rowid = b.search_rowid
      WHERE b.search_rowid IN (SELECT value FROM json_each(${JSON.stringify(hits.map((h) => h.rowid))})) AND ${publiclyVisibleSql('b')}`.execute(
      this.db,
    );
    // Rank them as bm25 weighs the columns (title 10, tags 6, description 4, body 1), term by term,
    // without bm25's scan of every match for document frequencies: every hit holds every term
    // somewhere (the base score), and a term found in a column adds that column's weight. The
    // columns' terms are stored stemmed as FTS5 stems them (porter.ts), so one read of the hits
    // answers what was one FTS5 column check per term and column.
    const wanted = groups.map((g) => [...new Set(g.map((w) => ` ${porterStem(w)} `))]);
    const score = new Map<number, number>();
    for (const hit of visible) {
      let s = groups.length;
      for (const [column, weight] of COLUMN_WEIGHTS) {
        const stems = hit[column];
        if (stems) for (const w of wanted) if (w.some((stem) => stems.includes(stem))) s += weight;
      }
      score.set(hit.rowid, s);
    }
    const order = visible.map((r) => r.rowid).sort((a, b) => score.get(b)! - score.get(a)! || b - a);
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
