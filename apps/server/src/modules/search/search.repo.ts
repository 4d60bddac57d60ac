import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { selectCard } from '../blogs/blogs.repo';
import { toFts5Query, toTsQuery } from './search.query';

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

  constructor(private readonly db: Kysely<Database>) {
    this.pg = isPostgres(db);
  }

  /** Indexes a new blog; returns the FTS rowid to store on the blog (null on PostgreSQL). */
  async index(doc: SearchDocument, db: Kysely<Database>): Promise<number | null> {
    if (this.pg) return null;
    const r =
      await sql`INSERT INTO blogs_fts (title, description, tags, body) VALUES (${doc.title}, ${doc.description}, ${doc.tags.join(' ')}, ${doc.body})`.execute(
        db,
      );
    return Number(r.insertId);
  }

  async reindex(rowid: number | null, doc: SearchDocument, db: Kysely<Database>): Promise<number | null> {
    if (this.pg) return null;
    if (rowid === null) return this.index(doc, db);
    await sql`UPDATE blogs_fts SET title = ${doc.title}, description = ${doc.description}, tags = ${doc.tags.join(' ')}, body = ${doc.body} WHERE rowid = ${rowid}`.execute(
      db,
    );
    return rowid;
  }

  async remove(rowid: number | null, db: Kysely<Database>): Promise<void> {
    if (this.pg || rowid === null) return;
    await sql`DELETE FROM blogs_fts WHERE rowid = ${rowid}`.execute(db);
  }

  /** Ranked published blogs matching every term (last one as a prefix); one extra row for hasMore. */
  search(terms: string[], limit: number, offset: number) {
    if (this.pg) {
      const query = sql`to_tsquery('english', ${toTsQuery(terms)})`;
      return selectCard(this.db.selectFrom('blogs'))
        .where('blogs.draft', '=', 0)
        .where(sql<boolean>`blogs.search_vector @@ ${query}`)
        .orderBy(sql`ts_rank_cd(blogs.search_vector, ${query})`, 'desc')
        .orderBy('blogs.created_at', 'desc')
        .limit(limit + 1)
        .offset(offset)
        .execute();
    }
    const match = toFts5Query(terms);
    return selectCard(this.db.selectFrom('blogs'))
      .innerJoin(
        sql<{
          rowid: number;
          rank: number;
        }>`(SELECT rowid, bm25(blogs_fts, 10.0, 4.0, 6.0, 1.0) AS rank FROM blogs_fts WHERE blogs_fts MATCH ${match})`.as('hits'),
        (j) => j.onRef('hits.rowid', '=', 'blogs.search_rowid'),
      )
      .where('blogs.draft', '=', 0)
      .orderBy(sql`hits.rank`)
      .orderBy('blogs.created_at', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
  }
}
