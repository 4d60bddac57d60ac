/**
 * A write lost to a unique index (PostgreSQL 23505, SQLite's UNIQUE or PRIMARY KEY constraint):
 * the way concurrent claims of one name, address or slug are decided.
 */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
