import type { Kysely } from 'kysely';
import { analyzeWhereCounted } from '../planner-statistics';

/**
 * Undoing a like, follow or comment like deletes its notification by (sender, recipient, type):
 * the old (sender_id, type) index made that scan every like the sender ever gave. The new one
 * still starts with sender_id, so deleting a user's account finds their notifications too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('notifications_sender_recipient_idx')
    .on('notifications')
    .columns(['sender_id', 'recipient_id', 'type'])
    .execute();
  await db.schema.dropIndex('notifications_sender_idx').execute();
  // Where statistics exist (a seeded or long-lived SQLite database) the planner trusts them and
  // knows nothing of the new index: it kept using blog_id's. PostgreSQL's autovacuum analyzes.
  await analyzeWhereCounted(db, ['notifications']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('notifications_sender_idx').on('notifications').columns(['sender_id', 'type']).execute();
  await db.schema.dropIndex('notifications_sender_recipient_idx').execute();
}
