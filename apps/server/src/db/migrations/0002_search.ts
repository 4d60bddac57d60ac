import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Full-text search over title, description, tags and block text.
 * PostgreSQL: a weighted tsvector generated column with a GIN index.
 * SQLite: an FTS5 table whose rowid each blog remembers (blogs.search_rowid), kept in step
 * by the search repository inside the same transaction as the blog write.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`ALTER TABLE blogs ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
      setweight(to_tsvector('english', coalesce(tags, '')), 'B') ||
      setweight(to_tsvector('english', coalesce(description, '')), 'B') ||
      setweight(to_tsvector('english', coalesce(search_text, '')), 'C')
    ) STORED`.execute(db);
    await sql`CREATE INDEX blogs_search_idx ON blogs USING gin (search_vector)`.execute(db);
    await sql`ALTER TABLE blogs ADD COLUMN search_rowid bigint`.execute(db);
    return;
  }
  await sql`CREATE VIRTUAL TABLE blogs_fts USING fts5(title, description, tags, body, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql`ALTER TABLE blogs ADD COLUMN search_rowid integer`.execute(db);
  await sql`CREATE INDEX blogs_search_rowid_idx ON blogs (search_rowid)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP INDEX IF EXISTS blogs_search_idx`.execute(db);
    await sql`ALTER TABLE blogs DROP COLUMN search_vector`.execute(db);
  } else {
    await sql`DROP TABLE IF EXISTS blogs_fts`.execute(db);
  }
  await sql`ALTER TABLE blogs DROP COLUMN search_rowid`.execute(db);
}
