import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL search reads a narrow side table, `search_docs`, instead of the wide blogs rows:
 * one row per publicly visible blog (published, not hidden; drafts, scheduled, hidden and
 * suspended authors' posts have none) with its date, its lexemes without positions (`words`,
 * a few hundred bytes stored inline, so testing a row reads no TOAST), and the lexemes of its
 * title, tags and description for ranking. A trigger on blogs keeps it in the same transaction as
 * every write that changes a blog's text, date or visibility (create, edit, publish, schedule,
 * delete, hide, suspend), whichever code path makes it. It replaces the GIN index on
 * blogs.search_vector (the generated column stays: the trigger reads it).
 * SQLite has nothing to do here (FTS5 already is a separate table).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE TABLE search_docs (
    blog_id uuid PRIMARY KEY,
    created_at timestamptz NOT NULL,
    words tsvector NOT NULL,
    title_words tsvector NOT NULL,
    tag_words tsvector NOT NULL,
    description_words tsvector NOT NULL
  )`.execute(db);
  // Small rows stay in the heap page, uncompressed (no TOAST and no decompression per row tested).
  for (const column of ['words', 'title_words', 'tag_words', 'description_words']) {
    await sql`ALTER TABLE search_docs ALTER COLUMN ${sql.ref(column)} SET STORAGE MAIN`.execute(db);
  }
  await sql`CREATE FUNCTION search_docs_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' OR NEW.draft <> 0 OR NEW.hidden <> 0 THEN
        DELETE FROM search_docs WHERE blog_id = OLD.id;
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        RETURN NEW;
      END IF;
      INSERT INTO search_docs (blog_id, created_at, words, title_words, tag_words, description_words)
      VALUES (NEW.id, NEW.created_at, strip(NEW.search_vector), strip(to_tsvector('english', coalesce(NEW.title, ''))),
        strip(to_tsvector('english', coalesce(NEW.tags, ''))), strip(to_tsvector('english', coalesce(NEW.description, ''))))
      ON CONFLICT (blog_id) DO UPDATE SET created_at = excluded.created_at, words = excluded.words,
        title_words = excluded.title_words, tag_words = excluded.tag_words, description_words = excluded.description_words;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER search_docs_insert AFTER INSERT ON blogs FOR EACH ROW EXECUTE FUNCTION search_docs_sync()`.execute(db);
  // Counter updates (likes, comments, saves) name none of these columns and do not fire it.
  await sql`CREATE TRIGGER search_docs_update AFTER UPDATE OF title, description, tags, search_text, draft, hidden, created_at ON blogs
    FOR EACH ROW EXECUTE FUNCTION search_docs_sync()`.execute(db);
  await sql`CREATE TRIGGER search_docs_delete AFTER DELETE ON blogs FOR EACH ROW EXECUTE FUNCTION search_docs_sync()`.execute(db);

  await sql`INSERT INTO search_docs (blog_id, created_at, words, title_words, tag_words, description_words)
    SELECT id, created_at, strip(search_vector), strip(to_tsvector('english', coalesce(title, ''))),
      strip(to_tsvector('english', coalesce(tags, ''))), strip(to_tsvector('english', coalesce(description, '')))
    FROM blogs WHERE draft = 0 AND hidden = 0 ORDER BY created_at, id`.execute(db);
  await sql`CREATE INDEX search_docs_newest_idx ON search_docs (created_at DESC, blog_id DESC)`.execute(db);
  await sql`CREATE INDEX search_docs_words_idx ON search_docs USING gin (words)`.execute(db);
  await sql`DROP INDEX IF EXISTS blogs_search_idx`.execute(db);
  await sql`ANALYZE search_docs`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE INDEX IF NOT EXISTS blogs_search_idx ON blogs USING gin (search_vector)`.execute(db);
  await sql`DROP TABLE search_docs`.execute(db);
  await sql`DROP FUNCTION search_docs_sync() CASCADE`.execute(db);
}
