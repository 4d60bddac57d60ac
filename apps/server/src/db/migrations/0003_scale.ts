import { type Kysely, sql } from 'kysely';
import { vocabularyOf } from '../../modules/search/search.query';
import { isPostgres } from '../dialect';
import { analyzeWhereCounted } from '../planner-statistics';

/**
 * Indexes and structures for a site of a million posts.
 *
 * - Tag pages pick their page of ids from one index that holds the whole sort key
 *   (created_at, then blog_id), so deep pages skip index entries only.
 * - SQLite: which FTS rows are published blogs, answered by an index (search_rowid, draft).
 * - SQLite: the words of all indexed text, unstemmed, in a b-tree. FTS5 answers a prefix
 *   ("kube"*) by merging the doclists of every matching term in full, which at 1M posts takes
 *   100 ms to seconds; search expands the prefix to words here and asks FTS5 for those words
 *   instead, which it can read newest first and stop early. Existing blogs are read once to fill it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('blog_tags_page_idx').on('blog_tags').columns(['tag', 'draft', 'created_at', 'blog_id']).execute();
  await db.schema.dropIndex('blog_tags_tag_idx').execute();
  if (isPostgres(db)) return;

  // Which of a search's newest matches are published, from the index alone.
  await sql`CREATE INDEX blogs_search_rowid_draft_idx ON blogs (search_rowid, draft)`.execute(db);
  await sql`DROP INDEX blogs_search_rowid_idx`.execute(db);
  await sql`CREATE TABLE search_words (word text PRIMARY KEY) WITHOUT ROWID`.execute(db);
  let after = '';
  for (;;) {
    const { rows } = await sql<{
      id: string;
      title: string;
      description: string;
      tags: string;
      search_text: string;
    }>`SELECT id, title, description, tags, search_text FROM blogs WHERE id > ${after} ORDER BY id LIMIT 2000`.execute(db);
    if (!rows.length) break;
    const words = new Set<string>();
    for (const r of rows) for (const w of vocabularyOf(`${r.title} ${r.description} ${r.tags} ${r.search_text}`)) words.add(w);
    await sql`INSERT INTO search_words (word) SELECT value FROM json_each(${JSON.stringify([...words])}) WHERE true ON CONFLICT DO NOTHING`.execute(
      db,
    );
    after = rows[rows.length - 1]!.id;
  }
  // A database with statistics (seeded, or long-lived) gets them for the new indexes too.
  await analyzeWhereCounted(db, ['blog_tags', 'blogs']);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await sql`DROP TABLE IF EXISTS search_words`.execute(db);
    await sql`CREATE INDEX blogs_search_rowid_idx ON blogs (search_rowid)`.execute(db);
    await sql`DROP INDEX blogs_search_rowid_draft_idx`.execute(db);
  }
  await db.schema.createIndex('blog_tags_tag_idx').on('blog_tags').columns(['tag', 'draft', 'created_at']).execute();
  await db.schema.dropIndex('blog_tags_page_idx').execute();
}
