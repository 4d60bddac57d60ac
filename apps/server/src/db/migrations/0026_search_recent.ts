import { type Kysely, sql } from 'kysely';
import { RANKED_SPAN, RECENT_MARGIN } from '../../modules/search/search.query';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL: `search_recent`, the newest publicly visible posts' rows of `search_docs` with their
 * own GIN index, so the ranked window (the newest matches among the newest RANKED_SPAN posts) is
 * read from posting lists ~20× shorter than over all time, without ANDing a date range's bitmap
 * (search.postgres.ts). At 1M posts a tag word with a common one took 11–14 ms of GIN and date
 * bitmap; on this table ~2.5 ms.
 *
 * A trigger on search_docs keeps it in the same transaction: every change of a row it holds, and
 * every new row at least as new as its oldest (an edit of an old post stays out). The job
 * `search-recent` (search-recent.job.ts) trims what has fallen past the span and a margin and
 * tops it up after deletions; until it does, the search checks that the table still holds the
 * whole span and reads search_docs if not.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE TABLE search_recent (LIKE search_docs INCLUDING STORAGE)`.execute(db);
  await sql`ALTER TABLE search_recent ADD PRIMARY KEY (blog_id)`.execute(db);
  await sql`CREATE FUNCTION search_recent_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        DELETE FROM search_recent WHERE blog_id = OLD.blog_id;
        RETURN OLD;
      END IF;
      IF NEW.created_at >= coalesce((SELECT created_at FROM search_recent ORDER BY created_at, blog_id LIMIT 1), '-infinity')
        OR EXISTS (SELECT 1 FROM search_recent WHERE blog_id = NEW.blog_id) THEN
        INSERT INTO search_recent (blog_id, created_at, words, title_words, tag_words, description_words)
        VALUES (NEW.blog_id, NEW.created_at, NEW.words, NEW.title_words, NEW.tag_words, NEW.description_words)
        ON CONFLICT (blog_id) DO UPDATE SET created_at = excluded.created_at, words = excluded.words,
          title_words = excluded.title_words, tag_words = excluded.tag_words, description_words = excluded.description_words;
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER search_recent_insert AFTER INSERT ON search_docs FOR EACH ROW EXECUTE FUNCTION search_recent_sync()`.execute(db);
  await sql`CREATE TRIGGER search_recent_update AFTER UPDATE ON search_docs FOR EACH ROW EXECUTE FUNCTION search_recent_sync()`.execute(db);
  await sql`CREATE TRIGGER search_recent_delete AFTER DELETE ON search_docs FOR EACH ROW EXECUTE FUNCTION search_recent_sync()`.execute(db);
  await sql.raw(fillSearchRecent(RANKED_SPAN + RECENT_MARGIN)).execute(db);
  await sql`CREATE INDEX search_recent_newest_idx ON search_recent (created_at DESC, blog_id DESC)`.execute(db);
  await sql`CREATE INDEX search_recent_words_idx ON search_recent USING gin (words)`.execute(db);
  await sql`ANALYZE search_recent`.execute(db);
}

/** The newest `rows` of search_docs into search_recent (also run by the seeder, which loads without triggers). */
export function fillSearchRecent(rows: number): string {
  return `INSERT INTO search_recent SELECT * FROM search_docs ORDER BY created_at DESC, blog_id DESC LIMIT ${Math.trunc(rows)}
    ON CONFLICT (blog_id) DO NOTHING`;
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`DROP TABLE search_recent`.execute(db);
  await sql`DROP FUNCTION search_recent_sync() CASCADE`.execute(db);
}
