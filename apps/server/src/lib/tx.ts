import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { touchChanges } from '../db/write-watch';

/** A transaction plus work to run once it has committed (realtime pushes, file deletes). */
export interface Tx {
  db: Kysely<Database>;
  afterCommit(fn: () => unknown): void;
  /**
   * Declares that this transaction's writes to `tables` change only the public values tagged
   * `tags` (lib/public-tags.ts): cached copies of those are dropped at COMMIT, the rest stay.
   * Writes to public tables not named here still drop every cached copy.
   */
  touch(tags: readonly string[], tables: readonly string[]): Promise<void>;
}

/**
 * Runs fn in one transaction; afterCommit callbacks run only if it committed, so nobody is
 * told about a change that was rolled back. A failing callback never fails the request.
 */
export async function transact<T>(db: Kysely<Database>, fn: (tx: Tx) => Promise<T>, onCallbackError?: (err: unknown) => void): Promise<T> {
  const after: (() => unknown)[] = [];
  const result = await db
    .transaction()
    .execute((trx) => fn({ db: trx, afterCommit: (f) => after.push(f), touch: (tags, tables) => touchChanges(trx, tags, tables) }));
  for (const f of after) {
    try {
      await f();
    } catch (err) {
      onCallbackError?.(err);
    }
  }
  return result;
}
