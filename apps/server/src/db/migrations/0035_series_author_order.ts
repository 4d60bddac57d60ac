import type { Kysely } from 'kysely';

/**
 * `GET /series/mine` pages a writer's series by (created_at, id): series_author_idx named the
 * author alone, so every page read and sorted all of that writer's series. The new index holds
 * the page's order and serves the author lookups the old one did.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('series_author_created_idx').on('series').columns(['author_id', 'created_at', 'id']).execute();
  await db.schema.dropIndex('series_author_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('series_author_idx').on('series').column('author_id').execute();
  await db.schema.dropIndex('series_author_created_idx').execute();
}
