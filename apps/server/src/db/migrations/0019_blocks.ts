import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Blocking and muting (issue 15). One row per pair, keyed (actor, target) so "whom did I block"
 * is the primary key's prefix; the index on the target answers "who blocked me" for the
 * either-way checks (a block works in both directions). Both go with either account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = sql.raw(pg ? 'uuid' : 'text') as any;
  const timeType = sql.raw(pg ? 'timestamptz' : 'text') as any;
  for (const [table, actor, target] of [
    ['user_blocks', 'blocker_id', 'blocked_id'],
    ['user_mutes', 'muter_id', 'muted_id'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(actor, idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn(target, idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', timeType, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, [actor, target])
      .execute();
    await db.schema.createIndex(`${table}_target_idx`).on(table).column(target).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_mutes').execute();
  await db.schema.dropTable('user_blocks').execute();
}
