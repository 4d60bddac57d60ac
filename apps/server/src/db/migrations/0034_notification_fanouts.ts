import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * `notification_fanouts`: a post's notices still to be written. A publish tells the author's
 * first 500 followers in its own transaction (and an edit its first 500 likers and savers); past
 * those, it leaves a row here and the notification-fanout job tells the rest in batches of 500,
 * each its own short transaction, from the cursor the row keeps. 70,000 followers had held the
 * publish's transaction for 1.4–3.7 s (and, before a quadratic loop was mended, 30 s of the event
 * loop). One row per post and kind: a second edit while the first's is pending starts it over.
 * The row goes with its post or its author (cascade), and when its last batch is written.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = sql.raw(pg ? 'uuid' : 'text') as any;
  const timeType = sql.raw(pg ? 'timestamptz' : 'text') as any;
  await db.schema
    .createTable('notification_fanouts')
    .addColumn('blog_id', idType, (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sender_id', idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The last recipient told: followers go in (created_at, follower_id) order, reactors in user_id order.
    .addColumn('after_time', timeType)
    .addColumn('after_id', idType, (c) => c.notNull())
    .addColumn('created_at', timeType, (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_fanouts_pk', ['blog_id', 'kind'])
    .execute();
  // The job takes the oldest first; the sender's index serves the cascade of an account's deletion.
  await db.schema.createIndex('notification_fanouts_created_idx').on('notification_fanouts').column('created_at').execute();
  await db.schema.createIndex('notification_fanouts_sender_idx').on('notification_fanouts').column('sender_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_fanouts').execute();
}
