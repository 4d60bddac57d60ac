import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Each sign-up keeps its own name and password on its verification links until one of them is
 * opened (so a second sign-up never changes what the first one's link activates), and password
 * reset links get a table like verification links: only a SHA-256 of the token is stored.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = sql.raw(pg ? 'uuid' : 'text') as any;
  const timeType = sql.raw(pg ? 'timestamptz' : 'text') as any;

  // One statement per column: SQLite's ALTER TABLE adds one column at a time.
  await db.schema.alterTable('email_verifications').addColumn('signup_id', idType).execute();
  await db.schema.alterTable('email_verifications').addColumn('name', 'text').execute();
  await db.schema.alterTable('email_verifications').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('email_verifications').addColumn('signed_up_at', timeType).execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', idType, (c) => c.notNull())
    .addPrimaryKeyConstraint('password_resets_pk', ['id'])
    .addColumn('user_id', idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', timeType, (c) => c.notNull())
    .addColumn('used_at', timeType)
    .addColumn('created_at', timeType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();
  // The expired-tokens job deletes by expiry in batches.
  await db.schema.createIndex('password_resets_expires_idx').on('password_resets').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_resets').ifExists().execute();
  for (const column of ['signed_up_at', 'password_hash', 'name', 'signup_id']) {
    await db.schema.alterTable('email_verifications').dropColumn(column).execute();
  }
}
