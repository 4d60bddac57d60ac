import { type Kysely, sql } from 'kysely';

/**
 * users.relations: 1 once the user has blocked, muted, been blocked or been muted by anyone
 * (never cleared: a stale 1 only costs the check it would have saved). Every like, comment and
 * follow asked the database whether a block or mute stands between the two people, nearly
 * always for nothing; the other person's row, read anyway, now says when there cannot be one.
 * Set in the same transaction as the block or mute row, for both people.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('relations', 'smallint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE users SET relations = 1 WHERE id IN (
    SELECT blocker_id FROM user_blocks UNION SELECT blocked_id FROM user_blocks
    UNION SELECT muter_id FROM user_mutes UNION SELECT muted_id FROM user_mutes)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('relations').execute();
}
