import { type Kysely, type SqlBool, sql } from 'kysely';

/**
 * The unverified-accounts job (jobs/unverified-accounts.job.ts) finds accounts never verified by
 * age. Nearly every account is verified, so an index of the others alone stays tiny and the job
 * never reads the users table through.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('users_unverified_idx')
    .on('users')
    .column('created_at')
    .where(sql.raw<SqlBool>('email_verified = 0'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_unverified_idx').execute();
}
