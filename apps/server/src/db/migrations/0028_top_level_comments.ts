import { type Kysely, type SqlBool, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL: a post's top-level comments read newest first, a page at a time, from an index that
 * holds only them, in that order. `comments_blog_idx` (blog_id, parent_id, created_at, id) did not
 * serve the page there: PostgreSQL takes `parent_id IS NULL` as a condition on the index, not as
 * a fixed value of its column, so the index is not in created_at order for it. Every comment page
 * read all of the post's top-level comments, joined their authors and sorted them (0.64 ms for a
 * post with 187, about 4 ms with 1,757), growing with the post; through this index it reads the
 * page's 21 rows (0.13 ms). SQLite reads `comments_blog_idx` in order already (its IS NULL is an
 * equality): there the index would only cost its writes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema
    .createIndex('comments_top_level_idx')
    .on('comments')
    .columns(['blog_id', 'created_at', 'id'])
    .where(sql.raw<SqlBool>('parent_id IS NULL'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await db.schema.dropIndex('comments_top_level_idx').execute();
}
