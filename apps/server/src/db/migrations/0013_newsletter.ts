import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * The newsletter (issue 16): addresses from the home page's form with double opt-in, signed-in
 * readers' digest choice, one row per digest sent (its key makes a resumed run skip whoever already
 * got that period's digest), and extra headers on outbox mail (List-Unsubscribe).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = sql.raw(pg ? 'uuid' : 'text') as any;
  const timeType = sql.raw(pg ? 'timestamptz' : 'text') as any;

  await db.schema
    .createTable('newsletter_subscribers')
    .addColumn('id', idType, (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('confirm_token_hash', 'text', (c) => c.unique())
    .addColumn('unsubscribe_token', 'text', (c) => c.notNull().unique())
    .addColumn('requested_at', timeType, (c) => c.notNull())
    .addColumn('confirmed_at', timeType)
    .addColumn('unsubscribed_at', timeType)
    .execute();
  // The digest job pages through confirmed subscribers by id; the cleanup job finds old pending ones.
  await db.schema.createIndex('newsletter_subscribers_status_idx').on('newsletter_subscribers').columns(['status', 'id']).execute();
  await db.schema
    .createIndex('newsletter_subscribers_requested_idx')
    .on('newsletter_subscribers')
    .columns(['status', 'requested_at'])
    .execute();

  await db.schema
    .createTable('digest_preferences')
    .addColumn('user_id', idType, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('unsubscribe_token', 'text', (c) => c.notNull().unique())
    .addColumn('updated_at', timeType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('digest_preferences_frequency_idx').on('digest_preferences').columns(['frequency', 'user_id']).execute();

  await db.schema
    .createTable('digest_sends')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient_id', idType, (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('mailed', 'integer', (c) => c.notNull())
    .addColumn('created_at', timeType, (c) => c.notNull())
    .addPrimaryKeyConstraint('digest_sends_pk', ['kind', 'period', 'recipient_id'])
    .execute();
  await db.schema.createIndex('digest_sends_created_idx').on('digest_sends').column('created_at').execute();
  // Account deletion removes a reader's rows.
  await db.schema.createIndex('digest_sends_recipient_idx').on('digest_sends').column('recipient_id').execute();

  // JSON object of extra headers, e.g. List-Unsubscribe; null on mail that has none.
  await db.schema.alterTable('mail_outbox').addColumn('headers', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('headers').execute();
  await db.schema.dropTable('digest_sends').ifExists().execute();
  await db.schema.dropTable('digest_preferences').ifExists().execute();
  await db.schema.dropTable('newsletter_subscribers').ifExists().execute();
}
