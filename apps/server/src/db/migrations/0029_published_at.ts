import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * `blogs.published_at`: when the post first went public; null for a draft never published. The
 * post's date (`created_at`, which every list, feed and digest orders by) takes that time at the
 * first publication, so a draft begun weeks ago appears at the top of the feeds when it goes out,
 * and its author's followers are told once, not again at each republication (BlogsService).
 * No backfill (a rewrite of every row at 1M posts): a post published before this migration gets
 * its mark when it is first made a draft again (docs/decisions.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const timeType = sql.raw(isPostgres(db) ? 'timestamptz' : 'text') as any;
  await db.schema.alterTable('blogs').addColumn('published_at', timeType).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('blogs').dropColumn('published_at').execute();
}
