import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect';

/**
 * SQLite keeps the planner's row counts (sqlite_stat1) and drops its samples of index values
 * (sqlite_stat4, written by ANALYZE because better-sqlite3 builds SQLite with STAT4).
 *
 * With samples, a plan may depend on a parameter's value, so SQLite marks each statement that
 * consulted them to be prepared again whenever that parameter is bound to a new value: every
 * execution of a cached statement was parsed and planned anew. A like's read of its post took
 * 65–73 µs instead of ~4, a retracted notification 60 µs; on the write mix at 1k posts, 560–584
 * µs of server CPU a write against 487–494 without samples (docs/performance.md). The counts alone
 * still tell the planner how selective each index is, and a plan no longer changes per value.
 *
 * Runs after the migrations (some ANALYZE the tables they change) on every start, so an
 * operator's ANALYZE takes effect without its samples at the next restart.
 */
export async function dropIndexSamples(db: Kysely<any>): Promise<number> {
  if (isPostgres(db) || !(await sqliteTableExists(db, 'sqlite_stat4'))) return 0;
  const removed = Number((await sql`DELETE FROM sqlite_stat4`.execute(db)).numAffectedRows ?? 0);
  // Loads the statistics again, so this connection's plans stop using the samples at once.
  if (removed) await sql`ANALYZE sqlite_schema`.execute(db);
  return removed;
}

/**
 * SQLite: where the site has planner statistics (the seeder's or an operator's ANALYZE), a
 * migration that adds or changes indexes on these tables analyzes them again, or the planner,
 * trusting the old counts, knows nothing of the new indexes. PostgreSQL's autovacuum analyzes.
 */
export async function analyzeWhereCounted(db: Kysely<any>, tables: string[]): Promise<void> {
  if (isPostgres(db) || !(await sqliteTableExists(db, 'sqlite_stat1'))) return;
  for (const table of tables) await sql`ANALYZE ${sql.table(table)}`.execute(db);
}

async function sqliteTableExists(db: Kysely<any>, name: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE name = ${name}`.execute(db);
  return !!rows[0]?.n;
}
