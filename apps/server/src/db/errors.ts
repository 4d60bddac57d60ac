/**
 * A write lost to a unique index (PostgreSQL 23505, SQLite's UNIQUE or PRIMARY KEY constraint):
 * the way concurrent claims of one name, address or slug are decided.
 */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * A write that referenced a row deleted meanwhile (PostgreSQL 23503, SQLite's FOREIGN KEY
 * constraint): a like, comment or follow racing the deletion of its post, comment or account.
 * The service checked the row before writing; the answer is the one it gives a row not found.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e.code === '23503' || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * PostgreSQL's deadlock (40P01) and serialization failure (40001): the transaction was rolled
 * back whole and may simply run again (lib/tx.ts does, a few times).
 */
export function isTransientConflict(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === '40P01' || code === '40001';
}
