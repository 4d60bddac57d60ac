import type { Kysely } from 'kysely';
import { isTransientConflict } from '../db/errors';
import type { Database } from '../db/schema';
import { type Addition, touchChanges } from '../db/write-watch';

/** A transaction plus work to run once it has committed (realtime pushes, file deletes). */
export interface Tx {
  db: Kysely<Database>;
  afterCommit(fn: () => unknown): void;
  /**
   * Declares that this transaction's writes to `tables` change only the public values tagged
   * `tags` (lib/public-tags.ts): cached copies of those are dropped at COMMIT, the rest stay.
   * Writes to public tables not named here still drop every cached copy. `added`: rows the
   * copies may take in instead (db/write-watch.ts Addition).
   */
  touch(tags: readonly string[], tables: readonly string[], added?: readonly Addition[]): Promise<void>;
}

/**
 * Runs fn in one transaction; afterCommit callbacks run only if it committed, so nobody is
 * told about a change that was rolled back. A failing callback never fails the request.
 */
export async function transact<T>(db: Kysely<Database>, fn: (tx: Tx) => Promise<T>, onCallbackError?: (err: unknown) => void): Promise<T> {
  let after: (() => unknown)[] = [];
  const result = await retryingConflicts(() => {
    // A rolled-back attempt's callbacks go with it.
    after = [];
    return db
      .transaction()
      .execute((trx) =>
        fn({ db: trx, afterCommit: (f) => after.push(f), touch: (tags, tables, added) => touchChanges(trx, tags, tables, added) }),
      );
  });
  for (const f of after) {
    try {
      await f();
    } catch (err) {
      onCallbackError?.(err);
    }
  }
  return result;
}

/** What a write declares it changed: Tx.touch's tags, tables and added rows. */
export interface Declaration {
  tags: readonly string[];
  tables: readonly string[];
  added?: readonly Addition[];
}

/**
 * PostgreSQL: a change made by one statement (a data-modifying WITH is atomic by itself), so it
 * needs no BEGIN and COMMIT round trips. `run` must send exactly that one statement on the
 * connection it is given; the declaration (as Tx.touch) is reported with it once it ran.
 */
export function oneStatement<T>(db: Kysely<Database>, touched: Declaration, run: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  return retryingConflicts(() =>
    db.connection().execute(async (held) => {
      await touchChanges(held, touched.tags, touched.tables, touched.added);
      return run(held);
    }),
  );
}

/** Attempts of a write that PostgreSQL rolled back for a deadlock or a serialization failure. */
const CONFLICT_ATTEMPTS = 3;

/**
 * Runs the write again when PostgreSQL chose it as a deadlock's victim (or failed its
 * serialization): it was rolled back whole, so running it again is what the client would do,
 * after a short random pause so the two do not meet again. The last failure is thrown (409).
 */
async function retryingConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (n >= CONFLICT_ATTEMPTS || !isTransientConflict(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * n));
    }
  }
}

/** What a toggle changed: a row added, a row taken back, or neither (already so, or refused). */
export interface ToggleChange {
  added: boolean;
  removed: boolean;
}

/**
 * The notification a toggle (a like, a follow) writes with it, planned before the write on both
 * engines: created when it adds, retracted when it takes back. `tell` is false when nobody is told
 * (one's own post, a block or mute). PostgreSQL's one statement writes it from `id`, `recipientId`
 * and `tell`; a transaction (SQLite) calls `record`. `settle` pushes to open tabs once committed.
 */
export interface ToggleNotice {
  id: string;
  recipientId: string;
  tell: boolean;
  record(change: ToggleChange, db: Kysely<Database>): Promise<void>;
  settle(change: ToggleChange): Promise<void>;
}

/**
 * Notifications a change writes (a comment's), planned before it on both engines and already
 * filtered (never one's own, nobody silenced). PostgreSQL's one statement writes them from the
 * columns; a transaction calls `record`. `settle` pushes them to open tabs once committed.
 */
export interface PlannedNotices {
  ids: string[];
  recipientIds: string[];
  types: string[];
  record(db: Kysely<Database>): Promise<void>;
  settle(): Promise<void>;
}

/** A change that tells nobody. */
export const NO_NOTICES: PlannedNotices = { ids: [], recipientIds: [], types: [], record: async () => {}, settle: async () => {} };
