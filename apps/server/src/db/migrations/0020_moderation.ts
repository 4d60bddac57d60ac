import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Reports and moderation (issue 15).
 *
 * - users.role ('user' | 'moderator' | 'admin') and users.suspended_at.
 * - `hidden`, a bitmask on blogs, blog_tags (its copy of the blog's flags, for the tag index) and
 *   comments: 1 = hidden by a moderator, 2 = author suspended; visible iff 0. Two bits, so
 *   unsuspending never shows what a moderator hid, and restoring never shows a suspended author's.
 *   The visible-lists indexes are rebuilt with `hidden` beside `draft`, so "published and not
 *   hidden, newest first" stays one index range on either engine.
 * - reports: one row per report. The target is (target_type, target_id) with target_id the
 *   internal id, plus one foreign key column per kind so that deleting the post, comment or user
 *   deletes its reports on both engines. A partial unique index allows one OPEN report per
 *   reporter and item (SQLite and PostgreSQL both support `WHERE` on an index).
 * - moderation_actions: the audit log. It outlives what it names (target_label is a copy);
 *   a deleted moderator's rows stay, with moderator_id set null and their username kept.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = sql.raw(pg ? 'uuid' : 'text') as any;
  const timeType = sql.raw(pg ? 'timestamptz' : 'text') as any;

  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .execute();
  await db.schema.alterTable('users').addColumn('suspended_at', timeType).execute();
  for (const table of ['blogs', 'blog_tags', 'comments']) {
    await db.schema
      .alterTable(table)
      .addColumn('hidden', 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
  }

  // The visible lists: home feed, tag pages, sitemap files (and SQLite search's published check).
  await db.schema.dropIndex('blogs_feed_idx').execute();
  await db.schema.createIndex('blogs_feed_idx').on('blogs').columns(['draft', 'hidden', 'created_at', 'id']).execute();
  await db.schema.dropIndex('blog_tags_page_idx').execute();
  await db.schema.createIndex('blog_tags_page_idx').on('blog_tags').columns(['tag', 'draft', 'hidden', 'created_at', 'blog_id']).execute();
  await db.schema.dropIndex('blogs_sitemap_idx').execute();
  await db.schema.createIndex('blogs_sitemap_idx').on('blogs').columns(['draft', 'hidden', 'id', 'blog_id', 'updated_at']).execute();
  if (!pg) {
    await sql`DROP INDEX blogs_search_rowid_draft_idx`.execute(db);
    await sql`CREATE INDEX blogs_search_rowid_draft_idx ON blogs (search_rowid, draft, hidden)`.execute(db);
  }

  await db.schema
    .createTable('reports')
    .addColumn('id', idType, (c) => c.primaryKey())
    .addColumn('reporter_id', idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', idType, (c) => c.notNull())
    .addColumn('blog_id', idType, (c) => c.references('blogs.id').onDelete('cascade'))
    .addColumn('comment_id', idType, (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('target_user_id', idType, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('created_at', timeType, (c) => c.notNull())
    .addColumn('resolved_at', timeType)
    .addColumn('resolved_by', idType, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  // One open report per reporter and item; closed ones do not count.
  await db.schema
    .createIndex('reports_open_unique_idx')
    .on('reports')
    .columns(['reporter_id', 'target_type', 'target_id'])
    .unique()
    .where(sql.ref('status'), '=', 'open')
    .execute();
  // The queue: open reports of an item, newest first (grouping, and closing them all on a hide).
  await db.schema
    .createIndex('reports_open_target_idx')
    .on('reports')
    .columns(['target_type', 'target_id', 'created_at'])
    .where(sql.ref('status'), '=', 'open')
    .execute();
  // Cascades: PostgreSQL does not index foreign keys by itself.
  for (const column of ['reporter_id', 'blog_id', 'comment_id', 'target_user_id', 'resolved_by']) {
    await db.schema.createIndex(`reports_${column}_idx`).on('reports').column(column).execute();
  }

  await db.schema
    .createTable('moderation_actions')
    .addColumn('id', idType, (c) => c.primaryKey())
    .addColumn('moderator_id', idType, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('moderator_username', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('target_label', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', timeType, (c) => c.notNull())
    .execute();
  // The audit log, newest first (ids are time-ordered, so they break ties in order).
  await db.schema.createIndex('moderation_actions_created_idx').on('moderation_actions').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('moderation_actions_moderator_idx').on('moderation_actions').column('moderator_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.dropTable('moderation_actions').execute();
  await db.schema.dropTable('reports').execute();
  if (!pg) {
    await sql`DROP INDEX blogs_search_rowid_draft_idx`.execute(db);
    await sql`CREATE INDEX blogs_search_rowid_draft_idx ON blogs (search_rowid, draft)`.execute(db);
  }
  await db.schema.dropIndex('blogs_sitemap_idx').execute();
  await db.schema.createIndex('blogs_sitemap_idx').on('blogs').columns(['draft', 'id', 'blog_id', 'updated_at']).execute();
  await db.schema.dropIndex('blog_tags_page_idx').execute();
  await db.schema.createIndex('blog_tags_page_idx').on('blog_tags').columns(['tag', 'draft', 'created_at', 'blog_id']).execute();
  await db.schema.dropIndex('blogs_feed_idx').execute();
  await db.schema.createIndex('blogs_feed_idx').on('blogs').columns(['draft', 'created_at', 'id']).execute();
  for (const table of ['comments', 'blog_tags', 'blogs']) await db.schema.alterTable(table).dropColumn('hidden').execute();
  await db.schema.alterTable('users').dropColumn('suspended_at').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
