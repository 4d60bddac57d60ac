import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Autosave and revision history (issue 16).
 * - blogs.version: bumped by every committed update, so a save started from an older version is
 *   refused (409) instead of silently overwriting another tab's work.
 * - blog_autosaves: the author's work in progress on an existing post, one row per post and
 *   author, kept apart from the post so readers (and the public caches) never see it; its version
 *   continues the post's, so two tabs autosaving the same post also conflict.
 * - blog_revisions: the previous version of a post, kept on every publish, update and restore
 *   (the last 50 per post). Both tables go with the post and with the account (ON DELETE CASCADE).
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Same column types as 0001: uuid and timestamptz on PostgreSQL.
  const pg = isPostgres(db);
  const idType = sql.raw(pg ? 'uuid' : 'text') as any;
  const timeType = sql.raw(pg ? 'timestamptz' : 'text') as any;
  await db.schema
    .alterTable('blogs')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('blog_autosaves')
    .addColumn('blog_id', idType, (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('author_id', idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('saved_at', timeType, (c) => c.notNull())
    .addPrimaryKeyConstraint('blog_autosaves_pk', ['blog_id', 'author_id'])
    .execute();
  await db.schema.createIndex('blog_autosaves_author_idx').on('blog_autosaves').column('author_id').execute();

  await db.schema
    .createTable('blog_revisions')
    .addColumn('id', idType, (c) => c.primaryKey())
    .addColumn('blog_id', idType, (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    // Not a foreign key: a revision belongs to its post (an account merge moves posts, and with
    // them their history); an account's deletion removes its posts and so their revisions.
    .addColumn('author_id', idType, (c) => c.notNull())
    /** The post's version this revision was. */
    .addColumn('version', 'integer', (c) => c.notNull())
    /** What replaced it: 'update', 'publish' or 'restore'. */
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('draft', 'integer', (c) => c.notNull())
    /** Image URLs the revision shows (featured and blocks): their uploads are kept while it exists. */
    .addColumn('images', 'text', (c) => c.notNull())
    .addColumn('created_at', timeType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blog_revisions_blog_idx').on('blog_revisions').columns(['blog_id', 'created_at']).execute();
  await db.schema.createIndex('blog_revisions_author_idx').on('blog_revisions').column('author_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blog_revisions').execute();
  await db.schema.dropTable('blog_autosaves').execute();
  await db.schema.alterTable('blogs').dropColumn('version').execute();
}
