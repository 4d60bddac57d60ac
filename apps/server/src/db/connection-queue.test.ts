import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDatabase, type DatabaseHandle } from './database';

// SQLite's one connection, as the server opens it (the PostgreSQL pool is pg's own and not wrapped).
const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-queue-'));
let database: DatabaseHandle;
let db: Kysely<any>;
beforeAll(async () => {
  database = createDatabase({ sqliteFile: path.join(dir, 'db.sqlite') });
  db = database.db as unknown as Kysely<any>;
  await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`.execute(db);
});
afterAll(async () => {
  await database.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Clients that each send a short transaction, take `pause` steps of their own once answered (as a
 * request's handler does), and send the next; one more transaction comes in among them. Returns
 * how many of the clients' transactions sent after that one got the connection before it.
 */
async function overtakenBy(pause: number): Promise<number> {
  const CLIENTS = 3;
  const EACH = 30;
  let sent = 0;
  let awaited = -1;
  let served = false;
  let overtaking = 0;
  const send = (): Promise<void> => {
    const ticket = sent++;
    return db.transaction().execute(async (trx) => {
      if (ticket === awaited) served = true;
      else if (awaited >= 0 && ticket > awaited && !served) overtaking++;
      await trx.insertInto('t').values({ n: ticket }).execute();
    });
  };
  let transaction: Promise<void> | undefined;
  const clients = Array.from({ length: CLIENTS }, async () => {
    for (let i = 0; i < EACH; i++) {
      if (sent === 2 * CLIENTS && !transaction) {
        awaited = sent;
        transaction = send();
      }
      for (let step = 0; step < pause; step++) await Promise.resolve();
      await send();
    }
  });
  await Promise.all(clients);
  await transaction;
  expect(served).toBe(true);
  return overtaking;
}

// Kysely's own mutex woke every waiter on a release and let whoever asked in that instant take the
// connection: clients whose pace matched the length of a transaction did so at every release, and
// the transaction waited until they stopped (Kysely 0.28 under vitest: at paces of 33 and 70 steps,
// 55 and all 84 of the transactions sent after it went first; none at the other paces). Which
// paces match depends on Kysely's inner steps, so a range of them is tried.
test('the connection goes to those waiting for it in the order they asked: a newcomer never goes first', async () => {
  const overtaken: Record<number, number> = {};
  for (let pause = 0; pause <= 80; pause++) {
    const n = await overtakenBy(pause);
    if (n) overtaken[pause] = n;
  }
  expect(overtaken).toEqual({});
});

test('a transaction keeps the connection from BEGIN to COMMIT or ROLLBACK; the next in line gets it after either', async () => {
  const events: string[] = [];
  const first = db.transaction().execute(async (trx) => {
    events.push('first: begin');
    await new Promise((r) => setTimeout(r, 20)); // the event loop turns; the others queue meanwhile
    await trx.insertInto('t').values({ n: -1 }).execute();
    events.push('first: commit');
  });
  const failing = db.transaction().execute(async (trx) => {
    events.push('failing: begin');
    await trx.insertInto('t').values({ n: -2 }).execute();
    throw new Error('rolled back');
  });
  const read = sql<{ n: number }>`SELECT count(*) AS n FROM t WHERE n < 0`.execute(db).then(({ rows }) => {
    events.push(`read: ${rows[0]!.n}`);
  });
  const results = await Promise.allSettled([first, failing, read]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(events).toEqual(['first: begin', 'first: commit', 'failing: begin', 'read: 1']);
});
