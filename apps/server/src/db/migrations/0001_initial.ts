import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Every table the product needs, with the indexes of its query paths.
 * Types differ per engine only where it pays: uuid and timestamptz on PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = pg ? 'uuid' : 'text';
  const timeType = pg ? 'timestamptz' : 'text';
  const id = (name: string) => (t: CreateTableBuilder<any, any>) => t.addColumn(name, sql.raw(idType) as any, (c) => c.notNull());
  const fk =
    (name: string, table: string, onDelete: 'cascade' | 'set null' = 'cascade', nullable = false) =>
    (t: CreateTableBuilder<any, any>) =>
      t.addColumn(name, sql.raw(idType) as any, (c: ColumnDefinitionBuilder) => {
        const col = c.references(`${table}.id`).onDelete(onDelete);
        return nullable ? col : col.notNull();
      });
  const time =
    (name: string, nullable = false) =>
    (t: CreateTableBuilder<any, any>) =>
      t.addColumn(name, sql.raw(timeType) as any, (c) => (nullable ? c : c.notNull()));
  const counter = (name: string) => (t: CreateTableBuilder<any, any>) => t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0));
  const flag =
    (name: string, def: 0 | 1 = 0) =>
    (t: CreateTableBuilder<any, any>) =>
      t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(def));

  await db.schema
    .createTable('users')
    .$call(id('id'))
    .addPrimaryKeyConstraint('users_pk', ['id'])
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('bio', 'text')
    .addColumn('profile_pic', 'text')
    .$call(flag('google_auth'))
    .addColumn('google_sub', 'text', (c) => c.unique())
    .$call(flag('email_verified'))
    .$call(flag('show_liked_blogs'))
    .$call(flag('show_saved_blogs'))
    .$call(counter('token_version'))
    .$call(counter('follower_count'))
    .$call(counter('following_count'))
    .$call(counter('published_count'))
    .$call(time('created_at'))
    .$call(time('updated_at'))
    .execute();

  await db.schema
    .createTable('email_verifications')
    .$call(id('id'))
    .addPrimaryKeyConstraint('email_verifications_pk', ['id'])
    .$call(fk('user_id', 'users'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .$call(time('expires_at'))
    .$call(time('used_at', true))
    .$call(time('created_at'))
    .execute();
  await db.schema.createIndex('email_verifications_user_idx').on('email_verifications').column('user_id').execute();

  await db.schema
    .createTable('blogs')
    .$call(id('id'))
    .addPrimaryKeyConstraint('blogs_pk', ['id'])
    .addColumn('blog_id', 'text', (c) => c.notNull().unique())
    .$call(fk('creator_id', 'users'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .$call(counter('block_count'))
    .$call(flag('draft'))
    .$call(counter('like_count'))
    .$call(counter('comment_count'))
    .$call(counter('save_count'))
    .$call(time('created_at'))
    .$call(time('updated_at'))
    .execute();
  // Home feed: newest published first, keyset-friendly.
  await db.schema.createIndex('blogs_feed_idx').on('blogs').columns(['draft', 'created_at', 'id']).execute();
  // Profile lists: a creator's published or draft blogs, newest first.
  await db.schema.createIndex('blogs_creator_idx').on('blogs').columns(['creator_id', 'draft', 'created_at']).execute();

  await db.schema
    .createTable('blog_tags')
    .$call(fk('blog_id', 'blogs'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .$call(flag('draft'))
    .$call(time('created_at'))
    .addPrimaryKeyConstraint('blog_tags_pk', ['blog_id', 'tag'])
    .execute();
  await db.schema.createIndex('blog_tags_tag_idx').on('blog_tags').columns(['tag', 'draft', 'created_at']).execute();

  for (const table of ['likes', 'saves'] as const) {
    await db.schema
      .createTable(table)
      .$call(fk('user_id', 'users'))
      .$call(fk('blog_id', 'blogs'))
      .$call(time('created_at'))
      .addPrimaryKeyConstraint(`${table}_pk`, ['blog_id', 'user_id'])
      .execute();
    // A profile's liked or saved tab: the user's rows, newest first.
    await db.schema.createIndex(`${table}_user_idx`).on(table).columns(['user_id', 'created_at']).execute();
  }

  await db.schema
    .createTable('follows')
    .$call(fk('follower_id', 'users'))
    .$call(fk('following_id', 'users'))
    .$call(time('created_at'))
    .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'following_id'])
    .addCheckConstraint('follows_not_self', sql`follower_id <> following_id`)
    .execute();
  await db.schema.createIndex('follows_following_idx').on('follows').columns(['following_id', 'created_at']).execute();
  await db.schema.createIndex('follows_follower_created_idx').on('follows').columns(['follower_id', 'created_at']).execute();

  await db.schema
    .createTable('comments')
    .$call(id('id'))
    .addPrimaryKeyConstraint('comments_pk', ['id'])
    .$call(fk('blog_id', 'blogs'))
    .$call(fk('user_id', 'users'))
    .$call(fk('parent_id', 'comments', 'cascade', true))
    .addColumn('comment', 'text', (c) => c.notNull())
    .$call(counter('like_count'))
    .$call(counter('reply_count'))
    .$call(time('created_at'))
    .$call(time('updated_at'))
    .execute();
  await db.schema.createIndex('comments_blog_idx').on('comments').columns(['blog_id', 'parent_id', 'created_at']).execute();
  await db.schema.createIndex('comments_parent_idx').on('comments').columns(['parent_id', 'created_at']).execute();
  await db.schema.createIndex('comments_user_idx').on('comments').column('user_id').execute();

  await db.schema
    .createTable('comment_likes')
    .$call(fk('comment_id', 'comments'))
    .$call(fk('user_id', 'users'))
    .$call(time('created_at'))
    .addPrimaryKeyConstraint('comment_likes_pk', ['comment_id', 'user_id'])
    .execute();
  await db.schema.createIndex('comment_likes_user_idx').on('comment_likes').column('user_id').execute();

  await db.schema
    .createTable('notifications')
    .$call(id('id'))
    .addPrimaryKeyConstraint('notifications_pk', ['id'])
    .$call(fk('recipient_id', 'users'))
    .$call(fk('sender_id', 'users', 'cascade', true))
    .addColumn('type', 'text', (c) => c.notNull())
    .$call(fk('blog_id', 'blogs', 'cascade', true))
    .$call(fk('comment_id', 'comments', 'cascade', true))
    .addColumn('message', 'text')
    .$call(flag('is_read'))
    .$call(time('created_at'))
    .execute();
  await db.schema.createIndex('notifications_recipient_idx').on('notifications').columns(['recipient_id', 'created_at']).execute();
  await db.schema
    .createIndex('notifications_recipient_type_idx')
    .on('notifications')
    .columns(['recipient_id', 'type', 'created_at'])
    .execute();
  await db.schema.createIndex('notifications_unread_idx').on('notifications').columns(['recipient_id', 'is_read']).execute();
  // Cascades and undo (unlike, unfollow) look notifications up by their subject.
  await db.schema.createIndex('notifications_sender_idx').on('notifications').columns(['sender_id', 'type']).execute();
  await db.schema.createIndex('notifications_blog_idx').on('notifications').column('blog_id').execute();
  await db.schema.createIndex('notifications_comment_idx').on('notifications').column('comment_id').execute();

  await db.schema
    .createTable('transfer_requests')
    .$call(id('id'))
    .addPrimaryKeyConstraint('transfer_requests_pk', ['id'])
    .$call(fk('from_user_id', 'users'))
    .$call(fk('to_user_id', 'users'))
    .addColumn('accept_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('reject_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .$call(time('expires_at'))
    .$call(time('created_at'))
    .$call(time('resolved_at', true))
    .execute();
  await db.schema.createIndex('transfer_requests_from_idx').on('transfer_requests').column('from_user_id').execute();
  await db.schema.createIndex('transfer_requests_to_idx').on('transfer_requests').column('to_user_id').execute();

  await db.schema
    .createTable('mail_outbox')
    .$call(id('id'))
    .addPrimaryKeyConstraint('mail_outbox_pk', ['id'])
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .$call(counter('attempts'))
    .$call(time('next_attempt_at'))
    .$call(time('locked_until', true))
    .$call(time('sent_at', true))
    .addColumn('last_error', 'text')
    .$call(time('created_at'))
    .execute();
  await db.schema.createIndex('mail_outbox_pending_idx').on('mail_outbox').columns(['sent_at', 'next_attempt_at']).execute();

  await db.schema
    .createTable('uploads')
    .$call(id('id'))
    .addPrimaryKeyConstraint('uploads_pk', ['id'])
    .$call(fk('owner_id', 'users'))
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .$call(fk('blog_id', 'blogs', 'cascade', true))
    .$call(counter('width'))
    .$call(counter('height'))
    .$call(counter('bytes'))
    .$call(time('created_at'))
    .execute();
  await db.schema.createIndex('uploads_owner_idx').on('uploads').column('owner_id').execute();
  await db.schema.createIndex('uploads_blog_idx').on('uploads').column('blog_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'uploads',
    'mail_outbox',
    'transfer_requests',
    'notifications',
    'comment_likes',
    'comments',
    'follows',
    'saves',
    'likes',
    'blog_tags',
    'blogs',
    'email_verifications',
    'users',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
