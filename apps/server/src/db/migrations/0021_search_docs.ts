import { type Kysely, sql } from 'kysely';
import { FTS_TEXT_OF_BLOG, stemsOf } from '../../modules/search/search.query';
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
 *
 * SQLite: `search_heads`, one small row per FTS5 row (same rowid) with the terms of its title,
 * tags and description as FTS5 indexes them (folded, porter-stemmed, space-separated), so ranking
 * a search's 200 newest hits by column reads 200 small rows instead of re-running the match once
 * per word and column. Written by the search repository beside the FTS5 row; filled here from the
 * FTS5 content a batch at a time.
 */
/**
 * Fills search_docs from blogs, as this migration's trigger would have. Superseded by 0032's statement of the same name
 * (angle brackets read as spaces), which the seeder runs; kept as it was for this migration and 0032's `down`.
 */
export const FILL_SEARCH_DOCS = `INSERT INTO search_docs (blog_id, created_at, words, title_words, tag_words, description_words)
  SELECT id, created_at, strip(search_vector), strip(to_tsvector('english', coalesce(title, ''))),
    strip(to_tsvector('english', coalesce(tags, ''))), strip(to_tsvector('english', coalesce(description, '')))
  FROM blogs WHERE draft = 0 AND hidden = 0 ORDER BY created_at, id`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await sql`CREATE TABLE search_heads (rowid INTEGER PRIMARY KEY, title TEXT NOT NULL, tags TEXT NOT NULL, description TEXT NOT NULL)`.execute(
      db,
    );
    let after = 0;
    for (;;) {
      const { rows } = await sql<{ rowid: number; title: string; tags: string; description: string }>`
        SELECT blogs.search_rowid AS rowid, ${sql.raw(FTS_TEXT_OF_BLOG)} FROM blogs
        WHERE blogs.search_rowid > ${after} ORDER BY blogs.search_rowid LIMIT 5000`.execute(db);
      if (!rows.length) break;
      const heads = rows.map((r) => [r.rowid, stemsOf(r.title), stemsOf(r.tags), stemsOf(r.description)]);
      await sql`INSERT INTO search_heads (rowid, title, tags, description)
        SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(${JSON.stringify(heads)})`.execute(db);
      after = rows[rows.length - 1]!.rowid;
    }
    return;
  }
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

  await sql.raw(FILL_SEARCH_DOCS).execute(db);
  await sql`CREATE INDEX search_docs_newest_idx ON search_docs (created_at DESC, blog_id DESC)`.execute(db);
  await sql`CREATE INDEX search_docs_words_idx ON search_docs USING gin (words)`.execute(db);
  await sql`DROP INDEX IF EXISTS blogs_search_idx`.execute(db);
  await sql`ANALYZE search_docs`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await sql`DROP TABLE search_heads`.execute(db);
    return;
  }
  await sql`CREATE INDEX IF NOT EXISTS blogs_search_idx ON blogs USING gin (search_vector)`.execute(db);
  await sql`DROP TABLE search_docs`.execute(db);
  await sql`DROP FUNCTION search_docs_sync() CASCADE`.execute(db);
}
