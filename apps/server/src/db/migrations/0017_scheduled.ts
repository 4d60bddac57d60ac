import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Scheduled publishing (issue 16): a draft with scheduled_at set is published by the
 * 'scheduled-posts' job once that time (UTC) has passed. The index serves the job's
 * "due drafts, oldest first" scan, which stays small: only scheduled drafts have a value.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const timeType = sql.raw(isPostgres(db) ? 'timestamptz' : 'text') as any;
  await db.schema.alterTable('blogs').addColumn('scheduled_at', timeType).execute();
  await db.schema.createIndex('blogs_scheduled_at_idx').on('blogs').column('scheduled_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('blogs_scheduled_at_idx').execute();
  await db.schema.alterTable('blogs').dropColumn('scheduled_at').execute();
}
