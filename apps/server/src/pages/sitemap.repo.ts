import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../db/schema';
import { hasPublicPostsSql, publiclyVisibleSql } from '../lib/policies';

/** Slugs and usernames are URL-safe already; anything else is encoded. */
const segment = (value: string) => (/^[A-Za-z0-9_.~-]+$/.test(value) ? value : encodeURIComponent(value));

export interface SitemapRow {
  key: string;
  path: string;
  lastmod: string | null;
}

/** One file's key range: rows with after < key <= until (either end open). */
export interface KeyRange {
  after: string | null;
  until: string | null;
}

/**
 * Keyset-paged reads for sitemap files: each file is a key range read from an index range
 * (posts: blogs_sitemap_idx; profiles: the users primary key; tags: one seek per distinct tag in
 * blog_tags_page_idx), so file 100 of a million posts costs what file 1 does.
 * Public-only is the policy's `publiclyVisibleSql`, as in the feed, tag and profile lists.
 */
export class SitemapRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async posts({ after, until }: KeyRange, limit: number): Promise<SitemapRow[]> {
    let q = this.db.selectFrom('blogs').select(['id', 'blog_id', 'updated_at']).where(publiclyVisibleSql('blogs'));
    if (after) q = q.where('id', '>', after);
    if (until) q = q.where('id', '<=', until);
    const rows = await q.orderBy('id').limit(limit).execute();
    return rows.map((r) => ({ key: r.id, path: `/blog/${segment(r.blog_id)}`, lastmod: r.updated_at }));
  }

  /** The key of every `size`-th post after `from`, stepping the index `size` entries at a time. */
  postFileEnds(from: string | null, size: number): Promise<string[]> {
    return this.fileEnds(() => this.db.selectFrom('blogs').select('id').where(publiclyVisibleSql('blogs')), from, size);
  }

  /** Authors with at least one published post (the others' profiles have nothing to index). */
  async profiles({ after, until }: KeyRange, limit: number): Promise<SitemapRow[]> {
    let q = this.db.selectFrom('users').select(['id', 'username', 'updated_at']).where(hasPublicPostsSql('users'));
    if (after) q = q.where('id', '>', after);
    if (until) q = q.where('id', '<=', until);
    const rows = await q.orderBy('id').limit(limit).execute();
    return rows.map((r) => ({ key: r.id, path: `/@${segment(r.username)}`, lastmod: r.updated_at }));
  }

  profileFileEnds(from: string | null, size: number): Promise<string[]> {
    return this.fileEnds(() => this.db.selectFrom('users').select('id').where(hasPublicPostsSql('users')), from, size);
  }

  /** Every `size`-th id of `rows()` after `from`, one index step (OFFSET size - 1) per file. */
  private async fileEnds(
    rows: () => SelectQueryBuilder<Database, 'blogs' | 'users', { id: string }>,
    from: string | null,
    size: number,
  ): Promise<string[]> {
    const ends: string[] = [];
    for (;;) {
      let q = rows();
      const last = ends[ends.length - 1] ?? from;
      if (last) q = q.where('id', '>', last);
      const row = await q
        .orderBy('id')
        .limit(1)
        .offset(size - 1)
        .executeTakeFirst();
      if (!row) return ends;
      ends.push(row.id);
    }
  }

  /**
   * Tags of published posts in order, with their newest post's date: a recursive walk that
   * seeks from one distinct tag to the next (a loose index scan), never reading every row, and
   * stops at `until`.
   */
  async tags({ after, until }: KeyRange, limit: number): Promise<SitemapRow[]> {
    const below = until === null ? sql`` : sql`AND walk.tag < ${until}`;
    const upTo = until === null ? sql`` : sql`AND walk.tag <= ${until}`;
    const { rows } = await sql<{ tag: string; lastmod: string | null }>`
      WITH RECURSIVE walk(tag, n) AS (
        SELECT (SELECT tag FROM blog_tags WHERE ${publiclyVisibleSql('blog_tags')} AND tag > ${after ?? ''} ORDER BY tag LIMIT 1), 1
        UNION ALL
        SELECT (SELECT b.tag FROM blog_tags b WHERE ${publiclyVisibleSql('b')} AND b.tag > walk.tag ORDER BY b.tag LIMIT 1), walk.n + 1
        FROM walk WHERE walk.tag IS NOT NULL ${below} AND walk.n < ${limit}
      )
      SELECT walk.tag,
        (SELECT max(t.created_at) FROM blog_tags t WHERE t.tag = walk.tag AND ${publiclyVisibleSql('t')}) AS lastmod
      FROM walk WHERE walk.tag IS NOT NULL ${upTo}`.execute(this.db);
    return rows.map((r) => ({ key: r.tag, path: `/tag/${segment(r.tag)}`, lastmod: r.lastmod }));
  }

  async tagFileEnds(from: string | null, size: number): Promise<string[]> {
    const ends: string[] = [];
    for (;;) {
      const rows = await this.tags({ after: ends[ends.length - 1] ?? from, until: null }, size);
      if (rows.length < size) return ends;
      ends.push((rows[rows.length - 1] as SitemapRow).key);
    }
  }
}
