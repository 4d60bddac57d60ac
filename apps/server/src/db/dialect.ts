import { type Kysely, PostgresAdapter } from 'kysely';

/** The dialect seam: the few places where SQL differs between engines ask this. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
