import { type Kysely, sql } from 'kysely';
import { RANKED_SPAN, RECENT_MARGIN } from '../../modules/search/search.query';
import { isPostgres } from '../dialect';
import { FILL_SEARCH_DOCS as FILL_SEARCH_DOCS_0021 } from './0021_search_docs';
import { fillSearchRecent } from './0026_search_recent';

/**
 * PostgreSQL: words written in angle brackets are searchable. The default text-search parser reads
 * tag-like text (`<details class="x">`, `<progress value="3">`, the `<string>` of `Array<string>`,
 * `&lt;dialog open&gt;` once search_text holds it decoded) as one 'tag' token, which the english
 * configuration drops: on a developer blog, HTML elements and generics were found on SQLite and
 * not on PostgreSQL. Every to_tsvector input now passes through translate(…, '<>', '  '), so the
 * brackets are spaces and the words inside are indexed as words: blogs.search_vector (re-created,
 * as PostgreSQL 15 cannot change a generated column's expression: the table is rewritten once),
 * search_docs_sync() (search_docs' ranking columns), and search_docs and search_recent refilled so
 * existing posts are fixed. The query side needs nothing: its terms are letters and digits only.
 *
 * Cost: every post's text is parsed again while blogs is locked. Measured on seeded databases: 1.2 s
 * at 1k posts, 49 s at 50k (the rewrite of blogs 37 s, to_tsvector of the bodies about half of it,
 * refilling search_docs 7 s); at 1M posts expect about a quarter of an hour before the server starts.
 *
 * SQLite: nothing to do (FTS5's unicode61 tokenizer already splits at the brackets).
 */

/** A text column as to_tsvector reads it: never null, angle brackets as spaces. */
const spaced = (column: string) => `translate(coalesce(${column}, ''), '<>', '  ')`;
/** Before this migration (0002, 0021). */
const plain = (column: string) => `coalesce(${column}, '')`;

type Input = (column: string) => string;

const searchVector = (input: Input) => `
  setweight(to_tsvector('english', ${input('title')}), 'A') ||
  setweight(to_tsvector('english', ${input('tags')}), 'B') ||
  setweight(to_tsvector('english', ${input('description')}), 'B') ||
  setweight(to_tsvector('english', ${input('search_text')}), 'C')`;

const syncFunction = (input: Input) => `CREATE OR REPLACE FUNCTION search_docs_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' OR NEW.draft <> 0 OR NEW.hidden <> 0 THEN
        DELETE FROM search_docs WHERE blog_id = OLD.id;
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        RETURN NEW;
      END IF;
      INSERT INTO search_docs (blog_id, created_at, words, title_words, tag_words, description_words)
      VALUES (NEW.id, NEW.created_at, strip(NEW.search_vector), strip(to_tsvector('english', ${input('NEW.title')})),
        strip(to_tsvector('english', ${input('NEW.tags')})), strip(to_tsvector('english', ${input('NEW.description')})))
      ON CONFLICT (blog_id) DO UPDATE SET created_at = excluded.created_at, words = excluded.words,
        title_words = excluded.title_words, tag_words = excluded.tag_words, description_words = excluded.description_words;
      RETURN NEW;
    END $$`;

/**
 * Fills search_docs from blogs, as the trigger would have (also run by the seeder, which loads
 * without triggers). Supersedes 0021's statement of the same name.
 */
export const FILL_SEARCH_DOCS = `INSERT INTO search_docs (blog_id, created_at, words, title_words, tag_words, description_words)
  SELECT id, created_at, strip(search_vector), strip(to_tsvector('english', ${spaced('title')})),
    strip(to_tsvector('english', ${spaced('tags')})), strip(to_tsvector('english', ${spaced('description')}))
  FROM blogs WHERE draft = 0 AND hidden = 0 ORDER BY created_at, id`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await redefine(db, spaced, FILL_SEARCH_DOCS);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await redefine(db, plain, FILL_SEARCH_DOCS_0021);
}

async function redefine(db: Kysely<any>, input: Input, fill: string): Promise<void> {
  // An index on the column (0002's GIN, where 0021 was undone) goes with it: built again after.
  const { rows: vectorIndexes } = await sql<{ sql: string }>`SELECT indexdef AS sql FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename = 'blogs' AND indexdef LIKE '%search_vector%'`.execute(db);
  // One statement, one rewrite of blogs. The triggers on blogs name other columns (UPDATE OF) and
  // search_docs_sync() reads NEW.search_vector by name at run time: neither depends on it.
  await sql
    .raw(`ALTER TABLE blogs DROP COLUMN search_vector,
      ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${searchVector(input)}) STORED`)
    .execute(db);
  for (const { sql: index } of vectorIndexes) await sql.raw(index).execute(db);
  await sql.raw(syncFunction(input)).execute(db);
  await refill(db, fill);
}

/**
 * search_docs and search_recent filled again as 0021 and 0026 fill them: loaded without their
 * secondary indexes (built once after, over the loaded rows) and without search_recent's trigger
 * on search_docs (0026's fill copies the newest rows itself), then analyzed.
 */
async function refill(db: Kysely<any>, fill: string): Promise<void> {
  const { rows: indexes } = await sql<{ name: string; sql: string }>`SELECT indexname AS name, indexdef AS sql FROM pg_indexes i
    WHERE schemaname = current_schema() AND tablename IN ('search_docs', 'search_recent')
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.connamespace = i.schemaname::regnamespace)
    ORDER BY tablename = 'search_recent', indexname`.execute(db);
  await sql`TRUNCATE search_recent, search_docs`.execute(db);
  for (const { name } of indexes) await sql`DROP INDEX ${sql.ref(name)}`.execute(db);
  await sql`ALTER TABLE search_docs DISABLE TRIGGER USER`.execute(db);
  await sql.raw(fill).execute(db);
  await sql`ALTER TABLE search_docs ENABLE TRIGGER USER`.execute(db);
  await sql.raw(fillSearchRecent(RANKED_SPAN + RECENT_MARGIN)).execute(db);
  for (const { sql: index } of indexes) await sql.raw(index).execute(db);
  await sql`ANALYZE search_docs`.execute(db);
  await sql`ANALYZE search_recent`.execute(db);
}
