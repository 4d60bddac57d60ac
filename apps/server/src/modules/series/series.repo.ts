import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { blogReadableBySql, publiclyVisibleSql } from '../../lib/policies';

export interface SeriesPostRow {
  series_id: string;
  blog_id: string;
  title: string;
}

/** Queries of series and series_posts (issue 16). */
export class SeriesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(id: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('series').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** One page of the author's series, oldest first: `limit + 1` rows after `after` (the previous page's last). */
  listByAuthor(authorId: string, limit: number, after: { createdAt: string; id: string } | null) {
    let query = this.db.selectFrom('series').selectAll().where('author_id', '=', authorId);
    if (after) {
      // created_at >= … bounds the range; the OR breaks ties between series of the same instant.
      query = query
        .where('created_at', '>=', after.createdAt)
        .where((eb) => eb.or([eb('created_at', '>', after.createdAt), eb('id', '>', after.id)]));
    }
    return query
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit + 1)
      .execute();
  }

  /** Holds the series row until the transaction ends (PostgreSQL; SQLite has one writer anyway), so two joins count in turn. */
  async lock(id: string, trx: Kysely<Database>): Promise<void> {
    const query = trx.selectFrom('series').select('id').where('id', '=', id);
    await (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  }

  /** How many posts a series has (drafts included). */
  async postCount(seriesId: string, db: Kysely<Database> = this.db): Promise<number> {
    const row = await db
      .selectFrom('series_posts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('series_id', '=', seriesId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * The posts of the given series in order, in one query: those `viewer` can read (null: the
   * public's), or all of them for `'all'` (the author's own management list).
   */
  postsOf(seriesIds: readonly string[], viewer: string | null | 'all'): Promise<SeriesPostRow[]> {
    if (seriesIds.length === 0) return Promise.resolve([]);
    let query = this.db
      .selectFrom('series_posts as sp')
      .innerJoin('blogs as b', 'b.id', 'sp.blog_id')
      .select(['sp.series_id', 'b.blog_id', 'b.title'])
      .where('sp.series_id', 'in', seriesIds);
    if (viewer !== 'all') query = query.where(viewer === null ? publiclyVisibleSql('b') : blogReadableBySql('b', viewer));
    return query.orderBy('sp.series_id').orderBy('sp.position').execute();
  }

  /**
   * The series of one post and its posts the viewer can read, in one query (the post's page):
   * the post's own membership row joined to every row of the same series.
   */
  pageSeries(blogDbId: string, viewer: string | null) {
    return this.db
      .selectFrom('series_posts as own')
      .innerJoin('series as s', 's.id', 'own.series_id')
      .innerJoin('series_posts as sp', 'sp.series_id', 'own.series_id')
      .innerJoin('blogs as b', 'b.id', 'sp.blog_id')
      .select(['s.id as series_id', 's.title as series_title', 'b.blog_id', 'b.title'])
      .where('own.blog_id', '=', blogDbId)
      .where(viewer === null ? publiclyVisibleSql('b') : blogReadableBySql('b', viewer))
      .orderBy('sp.position')
      .execute();
  }

  async create(row: { id: string; author_id: string; title: string; created_at: string }, trx: Kysely<Database>) {
    await trx.insertInto('series').values(row).execute();
  }

  async rename(id: string, title: string, trx: Kysely<Database>) {
    await trx.updateTable('series').set({ title }).where('id', '=', id).execute();
  }

  async remove(id: string, trx: Kysely<Database>) {
    await trx.deleteFrom('series').where('id', '=', id).execute();
  }

  /** The internal ids (blogs.id) of the series' posts, drafts included. */
  async memberIds(seriesId: string, trx: Kysely<Database> = this.db): Promise<string[]> {
    const rows = await trx.selectFrom('series_posts').select('blog_id').where('series_id', '=', seriesId).orderBy('position').execute();
    return rows.map((r) => r.blog_id);
  }

  /** Replaces the series' posts; each leaves any other series it was in (a post is in at most one). */
  async replacePosts(seriesId: string, blogDbIds: readonly string[], trx: Kysely<Database>) {
    await trx.deleteFrom('series_posts').where('series_id', '=', seriesId).execute();
    if (blogDbIds.length === 0) return;
    await trx.deleteFrom('series_posts').where('blog_id', 'in', blogDbIds).execute();
    await trx
      .insertInto('series_posts')
      .values(blogDbIds.map((blog_id, position) => ({ series_id: seriesId, blog_id, position })))
      .execute();
  }

  /** Moves one post to the end of a series, or out of its series with null. */
  async setBlogSeries(blogDbId: string, seriesId: string | null, trx: Kysely<Database>) {
    await trx.deleteFrom('series_posts').where('blog_id', '=', blogDbId).execute();
    if (!seriesId) return;
    const last = await trx
      .selectFrom('series_posts')
      .select((eb) => eb.fn.max('position').as('p'))
      .where('series_id', '=', seriesId)
      .executeTakeFirst();
    const position = last?.p === null || last?.p === undefined ? 0 : Number(last.p) + 1;
    await trx.insertInto('series_posts').values({ series_id: seriesId, blog_id: blogDbId, position }).execute();
  }

  /** The series a post is in (its editor's select). */
  async seriesOfBlog(blogDbId: string, db: Kysely<Database> = this.db): Promise<string | null> {
    const row = await db.selectFrom('series_posts').select('series_id').where('blog_id', '=', blogDbId).executeTakeFirst();
    return row?.series_id ?? null;
  }
}
