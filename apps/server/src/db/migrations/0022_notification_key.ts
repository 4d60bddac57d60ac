import type { Kysely } from 'kysely';
import { analyzeWhereCounted } from '../planner-statistics';

/**
 * Undoing a like deletes its notification by (sender, recipient, type, post). With only
 * (sender, recipient, type) indexed, SQLite's planner took the post's index instead, and a busy
 * post holds every comment's and like's notification: 290 µs per unlike on the write mix, more
 * than the rest of the like. With the post in the key the delete is one index probe on both
 * engines; the index still starts with sender_id for account deletion.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('notifications_key_idx')
    .on('notifications')
    .columns(['sender_id', 'recipient_id', 'type', 'blog_id'])
    .execute();
  await db.schema.dropIndex('notifications_sender_recipient_idx').execute();
  await analyzeWhereCounted(db, ['notifications']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('notifications_sender_recipient_idx')
    .on('notifications')
    .columns(['sender_id', 'recipient_id', 'type'])
    .execute();
  await db.schema.dropIndex('notifications_key_idx').execute();
}
