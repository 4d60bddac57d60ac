import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Series (issue 16, dev.to's): an author's ordered group of posts. A post is in at most one
 * series (unique blog_id). Both go with the account, and a member row with its post
 * (ON DELETE CASCADE); parts are counted from `position` order at read time, so a removed post
 * leaves no gap to renumber.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = sql.raw(pg ? 'uuid' : 'text') as any;
  const timeType = sql.raw(pg ? 'timestamptz' : 'text') as any;
  await db.schema
    .createTable('series')
    .addColumn('id', idType, (c) => c.primaryKey())
    .addColumn('author_id', idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', timeType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('series_author_idx').on('series').column('author_id').execute();

  await db.schema
    .createTable('series_posts')
    .addColumn('series_id', idType, (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('blog_id', idType, (c) => c.notNull().unique().references('blogs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('series_posts_series_idx').on('series_posts').columns(['series_id', 'position']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('series_posts').execute();
  await db.schema.dropTable('series').execute();
}
