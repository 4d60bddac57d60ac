import { type Kysely, sql } from 'kysely';
import { FTS_TEXT_OF_BLOG, vocabularyOf } from '../../modules/search/search.query';
import { isPostgres } from '../dialect';

/**
 * SQLite's prefix vocabulary keeps only words of published blogs, with how many use each: a word
 * leaves when its last published use goes. Before, words of drafts and of deleted accounts stayed
 * forever and, through the cap on prefix expansion, hinted at hidden text. Recounted here from
 * the indexed text of published blogs, a batch at a time. PostgreSQL has no such table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`DROP TABLE search_words`.execute(db);
  await sql`CREATE TABLE search_words (word text PRIMARY KEY, uses integer NOT NULL) WITHOUT ROWID`.execute(db);
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; title: string; description: string; tags: string; body: string }>`
      SELECT blogs.id, ${sql.raw(FTS_TEXT_OF_BLOG)} FROM blogs
      WHERE blogs.search_rowid IS NOT NULL AND blogs.draft = 0 AND blogs.id > ${after} ORDER BY blogs.id LIMIT 2000`.execute(db);
    if (!rows.length) break;
    const uses = new Map<string, number>();
    for (const r of rows) {
      for (const w of vocabularyOf(`${r.title} ${r.description} ${r.tags} ${r.body}`)) uses.set(w, (uses.get(w) ?? 0) + 1);
    }
    await sql`INSERT INTO search_words (word, uses) SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify([...uses])}) WHERE true
      ON CONFLICT (word) DO UPDATE SET uses = uses + excluded.uses`.execute(db);
    after = rows[rows.length - 1]!.id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`CREATE TABLE search_words_before (word text PRIMARY KEY) WITHOUT ROWID`.execute(db);
  await sql`INSERT INTO search_words_before (word) SELECT word FROM search_words`.execute(db);
  await sql`DROP TABLE search_words`.execute(db);
  await sql`ALTER TABLE search_words_before RENAME TO search_words`.execute(db);
}
