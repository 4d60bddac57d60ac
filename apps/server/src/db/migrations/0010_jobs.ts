import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Background jobs (jobs/scheduler.ts): one lease row per job, claimed with a conditional UPDATE
 * so one instance runs a job at a time on either engine, and the indexes the cleanup jobs read
 * their batches from (a range of one index each, however big the tables grow).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const time = sql.raw(isPostgres(db) ? 'timestamptz' : 'text');
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('locked_until', time as any)
    .addColumn('next_run_at', time as any, (c) => c.notNull())
    .addColumn('last_started_at', time as any)
    .addColumn('last_finished_at', time as any)
    .addColumn('last_result', 'text')
    .execute();

  // Uploads never linked to a post, oldest first.
  await db.schema.createIndex('uploads_unattached_idx').on('uploads').columns(['blog_id', 'created_at']).execute();
  await db.schema.createIndex('email_verifications_expires_idx').on('email_verifications').column('expires_at').execute();
  await db.schema.createIndex('transfer_requests_expires_idx').on('transfer_requests').column('expires_at').execute();
  // Sent mail by age (the pending index leads with sent_at too, but then orders by next attempt).
  await db.schema.createIndex('mail_outbox_sent_idx').on('mail_outbox').column('sent_at').execute();
  await db.schema.createIndex('notifications_read_age_idx').on('notifications').columns(['is_read', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'notifications_read_age_idx',
    'mail_outbox_sent_idx',
    'transfer_requests_expires_idx',
    'email_verifications_expires_idx',
    'uploads_unattached_idx',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.dropTable('job_leases').execute();
}
