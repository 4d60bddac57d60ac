import { type Kysely, type RawBuilder, sql } from 'kysely';
import { oneOf, prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';
import { publiclyVisibleSql } from '../../lib/policies';
import { TaggedStore } from '../../lib/tagged-store';
import { type BlogCardRow, selectCard } from '../blogs/blogs.repo';
import { toTsQuery } from './search.query';

/** How many of the newest matches get ranked, and how far back they may lie (search.repo.ts). */
export interface Sizes {
  window: number;
  span: number;
  /** PostgreSQL: rows tested one by one before the GIN plans. */
  walk: number;
  /** PostgreSQL: rows GIN may find over all time for a search to visit them all rather than AND a date range. */
  few: number;
}

/** How many of the newest posts tell how common each term is, when the walk falls short. */
const SAMPLE = 400;
/**
 * What a read costs PostgreSQL at 1M posts (EXPLAIN ANALYZE, warm): a walk ~1.2 µs a row (the
 * date index, the row, one test); the span's GIN ~1 ms, and ~2.4 µs for each row it returns.
 */
const WALK_ROW_US = 1.2;
const GIN_READ_US = 1000;
const GIN_ROW_US = 2.4;
/** A term in more of the sampled posts than this is tested on rows rather than read from GIN. */
const RARE_SHARE = 0.3;
/** The default of Sizes.few: heap visits of 3,000 rows cost about what reading the span's GIN does. */
export const FEW = 3000;
/** How long the span's oldest post and the sample's counts are reused: they move only when posts are published. */
const EDGE_TTL_MS = 10_000;
/** termShares' key for search_docs' row count (no term has a NUL in it). */
const TOTAL_KEY = '\u0000total';

type Hit = { blog_id: string; created_at: Date | string; score: number };
/** A ranked window: how many hits it holds, the page's slice of their ranking, and the oldest hit (when the page may need it). */
type Ranked = { found: number; page: string[]; oldest: Edge | null };
/**
 * What GIN should read (`where` over all time, `whereInSpan` in search_recent), whether the
 * sample says GIN finds `few` rows over all time, the share of the span's rows its GIN returns
 * (`spanShare`, the terms taken as independent), and the `densest` the matches can be among the
 * newest posts (the rarest term's share of the sample).
 */
type Plan = { where: RawBuilder<unknown>; whereInSpan: RawBuilder<unknown>; few: boolean; spanShare: number; densest: number };
type Edge = { created_at: Date | string; blog_id: string };
type SpanState = { edge: Edge | null; recent: boolean };
const time = (d: Date | string) => (d instanceof Date ? d.getTime() : Date.parse(d));
const DOCS = sql.table('search_docs');
// A named statement: read by primary key, its plan never depends on the ids, and planning it
// on every search cost more PostgreSQL time than running it (0.44-0.52 -> 0.29 ms a search).
const cardsOf = prepared(
  (db, ids: string[]) =>
    selectCard(db.selectFrom('blogs'))
      .where(oneOf(db, 'blogs.id', ids))
      .where(publiclyVisibleSql('blogs')),
  { statementName: 'search_cards' },
);

/** The n-th newest post of a search table (an index-only read of its date index), or null. */
export async function nthNewest(db: Kysely<Database>, table: 'search_docs' | 'search_recent', n: number): Promise<Edge | null> {
  const { rows } = await sql<Edge>`SELECT created_at, blog_id FROM ${sql.table(table)}
    ORDER BY created_at DESC, blog_id DESC OFFSET ${n - 1} LIMIT 1`.execute(db);
  return rows[0] ?? null;
}

/**
 * Whether walking on, at `density` (matches a row among the newest), fills the window within the
 * walk for less than the span's GIN, which returns the rows of its terms (`ginShare` of the span)
 * and at least the matches.
 */
function walkOn(density: number, ginShare: number, walk: number, window: number, span: number): boolean {
  const rows = window / density;
  return rows <= walk && WALK_ROW_US * rows < GIN_READ_US + GIN_ROW_US * Math.max(ginShare, density) * span;
}

/** `rank` done in JavaScript, for hits already read whole. */
function rankHits(hits: Hit[], offset: number, limit: number): Ranked {
  const at = new Map(hits.map((h) => [h.blog_id, time(h.created_at)]));
  const order = hits
    .slice()
    .sort((a, b) => b.score - a.score || at.get(b.blog_id)! - at.get(a.blog_id)! || (a.blog_id < b.blog_id ? 1 : -1))
    .map((h) => h.blog_id);
  const oldest = hits[hits.length - 1];
  return { found: hits.length, page: order.slice(offset, offset + limit + 1), oldest: oldest ?? null };
}

/** Whether a row lies past `edge` in the date index's order (newest first, then blog_id). */
const olderThan = (row: Edge, edge: Edge) =>
  time(row.created_at) < time(edge.created_at) || (time(row.created_at) === time(edge.created_at) && row.blog_id < edge.blog_id);

/**
 * PostgreSQL search reads `search_docs` (migration 0021): one narrow row per publicly visible blog,
 * so neither plan touches the wide blogs rows or their TOASTed vectors, and `search_recent`
 * (migration 0026), the same rows for the newest posts only, with their own GIN index. The ranked
 * window (the newest `window` matches among the newest `span` posts) comes from one of two plans,
 * chosen by what the search sees (a sample of the newest posts, then a short walk) and what each
 * plan costs, rather than by the planner's guess (which is wrong when the words are rare together):
 * - a walk of the newest `walk` rows, testing each (common words: the window fills within it);
 * - else search_recent's GIN index (posting lists of the span only, no date range to AND), or,
 *   when GIN finds few rows over all time, search_docs' in one read that also gives the older
 *   matches. While search_recent misses part of the span (deletions, until its job tops it up),
 *   search_docs' GIN ANDed with the span's date range.
 * Ranked as on SQLite: each term adds 10 in the title, 6 in the tags, 4 in the description; the
 * window is ranked by PostgreSQL, which returns only the page's slice of it.
 */
export class PostgresSearch {
  private spanEdge?: { at: number; state: SpanState };
  private readonly termShares = new TaggedStore<number>({ maxEntries: 10_000, ttlMs: EDGE_TTL_MS });

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sizes: Sizes,
  ) {}

  async search(terms: string[], limit: number, offset: number): Promise<BlogCardRow[]> {
    const { window, span } = this.sizes;
    const walk = Math.min(this.sizes.walk, span);
    // The span's own table when it holds the whole span (a short walk never reaches past the span).
    const spanState = walk < span ? await this.edgeOfSpan() : null;
    const newest = sql.table(spanState?.recent ? 'search_recent' : 'search_docs');
    const query = sql`to_tsquery('english', ${toTsQuery(terms)})`;
    const last = terms.length - 1;
    const termQueries = terms.map((t, i) => sql`to_tsquery('english', ${i === last ? `${t}:*` : t})`);
    const score = sql<number>`${terms.length}${sql.join(
      termQueries.map((q) => sql` + 10 * (title_words @@ ${q})::int + 6 * (tag_words @@ ${q})::int + 4 * (description_words @@ ${q})::int`),
      sql``,
    )}`;
    const walkNewest = (rows: number) => sql`SELECT blog_id, created_at, ${score} AS score
      FROM (SELECT * FROM ${newest} ORDER BY created_at DESC, blog_id DESC LIMIT ${rows}) newest
      WHERE words @@ ${query} ORDER BY created_at DESC, blog_id DESC LIMIT ${window}`;
    // The sample's shares (kept per term) bound how dense the matches can be: no denser than the
    // rarest term. The first eighth of the walk fills the window for common words (over half the
    // searches); it is skipped where that bound says neither it nor the rest of the walk would
    // (1,000 rows tested for nothing, ~1.2 ms of PostgreSQL's time). Else it says how dense the
    // matches are, and the rest of the walk is made only where it should fill the window for less
    // than the span's GIN would cost (`walkOn`): a walk that falls short costs 4–11 ms before GIN is
    // read anyway.
    let plan: Plan | undefined;
    const planOnce = async () => (plan ??= await this.plan(newest, terms, termQueries, query));
    const first = walk < span ? Math.ceil(walk / 8) : walk;
    let ranked: Ranked = { found: 0, page: [], oldest: null };
    const { densest, spanShare } = walk < span ? await planOnce() : { densest: 1, spanShare: 1 };
    if (walk >= span || densest * first >= window || walkOn(densest, spanShare, walk, window, span)) {
      ranked = await this.rank(walkNewest(first), offset, limit);
      if (ranked.found < window && first < walk && walkOn(ranked.found / first, spanShare, walk, window, span))
        ranked = await this.rank(walkNewest(walk), offset, limit);
    }
    // Past a short walk: where the span ends (null: it holds every post). Read afresh when the walk
    // covered the span (its window must end where the older matches begin), else reused a while.
    const short = ranked.found < window;
    const edge = !short ? null : spanState ? spanState.edge : await nthNewest(this.db, 'search_docs', span);
    let tail: Hit[] | undefined;
    const inSpan = edge ? sql`(created_at, blog_id) >= (${edge.created_at}, ${edge.blog_id})` : sql`true`;
    if (short && walk < span) {
      const { where, whereInSpan, few } = await planOnce();
      if (spanState?.recent) {
        // The span's own GIN (its rows past the span, not yet trimmed, tested out).
        ranked = await this.rank(this.ginQuery(newest, whereInSpan, window, { score, filter: inSpan }), offset, limit);
      } else if (few) {
        // Few matches over all time: one read gives the window (its rows in the span) and the
        // older matches after it.
        const rows = await this.gin(DOCS, where, window + offset + limit + 1, { score });
        const outside = edge ? rows.findIndex((r) => olderThan(r, edge)) : -1;
        const hits = rows.slice(0, Math.min(window, outside < 0 ? rows.length : outside));
        tail = rows.slice(hits.length);
        ranked = rankHits(hits, offset, limit);
      } else {
        // GIN over all time ANDed with the span's date range: while search_recent is being topped
        // up, or on a site of fewer posts than the span (where that range is every post).
        ranked = await this.rank(this.ginQuery(newest, sql`${where} AND ${inSpan}`, window, { score }), offset, limit);
      }
    }
    if (!ranked.found && !edge) return [];
    const cards = ranked.page.length ? await this.cardsById(ranked.page) : [];
    if (cards.length > limit) return cards;

    // Past the ranked window: the older matches, newest first. A full window ends at its oldest hit
    // (the words are common: walking the date index finds them soon); a short one at the span's
    // edge (the words are rare together: GIN finds them), and nothing lies past a span of every post.
    const count = limit + 1 - cards.length;
    const skip = Math.max(0, offset - ranked.found);
    let older: string[];
    if (tail) older = tail.slice(skip, skip + count).map((r) => r.blog_id);
    else if (ranked.found === window) {
      const oldest = ranked.oldest!;
      const { rows } = await sql<{ blog_id: string }>`SELECT blog_id FROM search_docs WHERE words @@ ${query}
        AND (created_at, blog_id) < (${oldest.created_at}, ${oldest.blog_id}) ORDER BY created_at DESC, blog_id DESC
        LIMIT ${count} OFFSET ${skip}`.execute(this.db);
      older = rows.map((r) => r.blog_id);
    } else {
      if (!edge) return cards;
      const { where, few } = await planOnce();
      const before = sql`(created_at, blog_id) < (${edge.created_at}, ${edge.blog_id})`;
      // Matches lie about as densely before the edge as in the span. Where that says a walk back
      // finds the few this page needs (often one: whether there is a next page), it is walked, and
      // GIN is read only if it falls short: GIN over all time visits every row of its terms
      // (`token design beginners`: 128 ms for the one older match its first page asks for).
      const need = skip + count;
      let rows: { blog_id: string }[] = [];
      if (!few && ranked.found && (need * span) / ranked.found <= walk) {
        ({ rows } = await sql<{ blog_id: string }>`SELECT blog_id FROM (SELECT blog_id, created_at, words FROM search_docs WHERE ${before}
          ORDER BY created_at DESC, blog_id DESC LIMIT ${walk}) older WHERE words @@ ${query}
          ORDER BY created_at DESC, blog_id DESC LIMIT ${need}`.execute(this.db));
      }
      if (rows.length < need)
        rows = few ? await this.gin(DOCS, where, need, { filter: before }) : await this.gin(DOCS, sql`${where} AND ${before}`, need);
      older = rows.slice(skip).map((r) => r.blog_id);
    }
    return [...cards, ...(older.length ? await this.cardsById(older) : [])];
  }

  /**
   * What GIN should read: its cost follows the terms' posting lists, and a prefix term's are read
   * whole (GIN cannot skip through a partial match: `html:*` 14 ms where `html` took 2 at 1M
   * posts). So GIN over all time gets the terms that are rare among the newest posts, whole words
   * first (the prefix only when no rare word is whole; all terms when none is rare), and the others
   * are tested on the rows it finds (`ts_match_vq`, a function call, is not an index condition);
   * search_recent's GIN gets every rare term. `few`: the sample says GIN finds few rows over all
   * time (their heap visits cost less than reading the span's GIN).
   */
  private async plan(
    table: RawBuilder<unknown>,
    terms: string[],
    termQueries: RawBuilder<unknown>[],
    query: RawBuilder<unknown>,
  ): Promise<Plan> {
    const last = terms.length - 1;
    const { shares, total } = await this.sampleShares(table, terms, termQueries);
    const shareOf = (i: number) => shares[i]!;
    const usable = terms.map((_, i) => i).filter((i) => shareOf(i) >= 0);
    const rare = usable.filter((i) => shareOf(i) <= RARE_SHARE);
    const whole = rare.filter((i) => i !== last);
    // A prefix alone: PostgreSQL prices GIN's partial match above reading every row, and reads them
    // (`mern:*` in search_recent: 40–51 ms against 14 through GIN). With the rarest whole word ANDed
    // in, its estimate falls and it reads GIN.
    const rarestWhole = usable.filter((i) => i !== last).sort((a, b) => shareOf(a) - shareOf(b))[0];
    const notPrefixAlone = (chosen: number[]) =>
      chosen.length === 1 && chosen[0] === last && rarestWhole !== undefined ? [rarestWhole, last] : chosen;
    const overAllTime = notPrefixAlone(whole.length ? whole : rare.length ? rare : usable);
    const inSpan = notPrefixAlone(rare.length ? rare : usable);
    const where = (chosen: number[]) => {
      const ginQuery = sql`to_tsquery('english', ${chosen.map((i) => (i === last ? `${terms[i]}:*` : terms[i])).join(' & ') || terms[last]!})`;
      return chosen.length < usable.length ? sql`${ginQuery} AND ts_match_vq(words, ${query})` : query;
    };
    const shareOfAll = (chosen: number[]) => chosen.reduce((p, i) => p * Math.max(0.5 / SAMPLE, shareOf(i)), 1);
    return {
      where: where(overAllTime),
      // The span's posting lists are short, prefixes' too: every rare term (ANDing them in GIN
      // costs less than testing the rows of one: `express & tutorial:*` 0.5 ms, `express` and a
      // test of each of its 4,776 rows 8.6 ms).
      whereInSpan: where(inSpan),
      few: shareOfAll(overAllTime) * Math.max(1, total) <= this.sizes.few,
      spanShare: shareOfAll(inSpan),
      densest: usable.length ? Math.min(...usable.map(shareOf)) : 0,
    };
  }

  /**
   * What share of the newest SAMPLE posts hold each term (-1: the term has no lexeme, a stop word),
   * and about how many posts search_docs holds. Both move only as posts are published, so they
   * are kept a few seconds per term: a search then reads them only for a term it is the first
   * to use (they choose a plan, never which posts match).
   */
  private async sampleShares(table: RawBuilder<unknown>, terms: string[], termQueries: RawBuilder<unknown>[]) {
    const last = terms.length - 1;
    const keys = terms.map((t, i) => (i === last ? `${t}:*` : t));
    const known = keys.map((k) => this.termShares.get(k));
    const knownTotal = this.termShares.get(TOTAL_KEY);
    if (knownTotal !== undefined && known.every((c) => c !== undefined)) return { shares: known as number[], total: knownTotal };
    const generation = this.termShares.generation;
    const { rows } = await sql<Record<string, number | string>>`SELECT ${sql.join(
      termQueries.map((q, i) => sql`count(*) FILTER (WHERE words @@ ${q}) AS ${sql.raw(`c${i}`)}, numnode(${q}) AS ${sql.raw(`n${i}`)}`),
    )}, count(*) AS sampled, (SELECT reltuples FROM pg_class WHERE oid = 'search_docs'::regclass) AS total
      FROM (SELECT words FROM ${table} ORDER BY created_at DESC, blog_id DESC LIMIT ${SAMPLE}) sample`.execute(this.db);
    const stats = rows[0] ?? {};
    const sampled = Math.max(1, Number(stats.sampled));
    const shares = keys.map((_, i) => (Number(stats[`n${i}`]) > 0 ? Number(stats[`c${i}`]) / sampled : -1));
    const total = Number(stats.total);
    for (const [i, k] of keys.entries()) this.termShares.set(k, generation, shares[i]!, []);
    this.termShares.set(TOTAL_KEY, generation, total, []);
    return { shares, total };
  }

  /**
   * The span's oldest post (null when there are fewer posts than the span) and whether
   * search_recent holds the whole span: it holds only rows of search_docs, so its own n-th newest
   * is the same post exactly when it holds all n newest. Reused for a few seconds.
   */
  private async edgeOfSpan(): Promise<SpanState> {
    const now = Date.now();
    if (!this.spanEdge || now - this.spanEdge.at > EDGE_TTL_MS) {
      const { span } = this.sizes;
      const [edge, recentEdge] = await Promise.all([nthNewest(this.db, 'search_docs', span), nthNewest(this.db, 'search_recent', span)]);
      this.spanEdge = { at: now, state: { edge, recent: edge !== null && recentEdge?.blog_id === edge.blog_id } };
    }
    return this.spanEdge.state;
  }

  /**
   * The newest matches through the GIN index. The matches are a subquery behind `OFFSET 0`, planned
   * for all its rows, so the planner cannot turn it back into a walk on a misestimate. (Not a
   * `WITH … MATERIALIZED` CTE: db/write-watch.ts counts raw SQL starting with WITH as a write.)
   * `filter` is tested on the matches (not pushed below `OFFSET 0`), never read from an index.
   * `score` is computed outside the subquery, so PostgreSQL puts it off past the LIMIT: on the
   * `count` rows kept, not on every match (`backend cloud`, 1,561 matches: 9.8 → 4.7 ms).
   */
  private ginQuery(
    table: RawBuilder<unknown>,
    where: RawBuilder<unknown>,
    count: number,
    { score, filter = sql`true` }: { score?: RawBuilder<number>; filter?: RawBuilder<unknown> } = {},
  ) {
    const vectors = score ? sql`, title_words, tag_words, description_words` : sql``;
    return sql`SELECT blog_id, created_at, ${score ?? sql`0`} AS score FROM (
        SELECT blog_id, created_at${vectors} FROM ${table} WHERE words @@ ${where} OFFSET 0) matches
      WHERE ${filter} ORDER BY created_at DESC, blog_id DESC LIMIT ${count}`;
  }

  private async gin(...args: Parameters<PostgresSearch['ginQuery']>): Promise<Hit[]> {
    return (await sql<Hit>`${this.ginQuery(...args)}`.execute(this.db)).rows;
  }

  /**
   * A window of hits (`hits`: blog_id, created_at, score) ranked where it is read, so that only
   * what the page needs comes back: its slice of the ranking (by score, then newest), how many hits
   * there are (the top hit always comes back to say it), and the oldest when the page may reach past
   * the window (where the older matches begin). Returning all 200 hits cost Node more than
   * PostgreSQL took to find them (their rows parsed, their dates converted).
   */
  private async rank(hits: RawBuilder<unknown>, offset: number, limit: number): Promise<Ranked> {
    const end = offset + limit + 1;
    const pastWindow = end > this.sizes.window;
    const { rows } = await sql<{ blog_id: string; created_at: Date | string; found: string; rank: string; oldest?: boolean }>`
      SELECT * FROM (
        SELECT blog_id, created_at, count(*) OVER () AS found,
          row_number() OVER (ORDER BY score DESC, created_at DESC, blog_id DESC) AS rank
          ${pastWindow ? sql`, row_number() OVER (ORDER BY created_at, blog_id) = 1 AS oldest` : sql``}
        FROM (${hits}) hits) ranked
      WHERE (rank > ${offset} AND rank <= ${end}) OR rank = 1 ${pastWindow ? sql`OR oldest` : sql``} ORDER BY rank`.execute(this.db);
    const oldest = rows.find((r) => r.oldest);
    return {
      found: Number(rows[0]?.found ?? 0),
      page: rows.filter((r) => Number(r.rank) > offset && Number(r.rank) <= end).map((r) => r.blog_id),
      oldest: oldest ? { created_at: oldest.created_at, blog_id: oldest.blog_id } : null,
    };
  }

  /** Cards of publicly visible blogs, in the order of `ids` (compiled once: the ids are one parameter). */
  private async cardsById(ids: string[]): Promise<BlogCardRow[]> {
    const { rows } = await cardsOf(this.db, ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    });
  }
}
