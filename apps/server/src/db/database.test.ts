import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../test/helpers';
import { isDatabaseDown } from '../lib/error-handler';
import { createDatabase } from './database';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (ENGINE !== 'postgres')
  console.warn('SKIPPED on SQLite: the connection-loss test needs a PostgreSQL server to cut (it runs in the PostgreSQL project).');
describe.skipIf(ENGINE !== 'postgres')('PostgreSQL connection loss', () => {
  // A restart terminates every backend; pg then emits 'error' on each client. One that is checked
  // out (between the statements of a transaction) used to have no listener, and the process died.
  it('survives a checked-out connection losing its server; the pool replaces it', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const database = createDatabase({ databaseUrl: url, sqliteFile: '', poolSize: 2 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const failure = await database.db.connection().execute(async (conn) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn);
        const pid = rows[0]!.pid;
        await admin.query('select pg_terminate_backend($1)', [pid]);
        // The backend is gone; give the client the moment it needs to see it go with no query running.
        while ((await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount) await sleep(10);
        await sleep(200);
        return sql`select 1`.execute(conn).then(
          () => null,
          (err: unknown) => err,
        );
      });
      expect(failure).toBeInstanceOf(Error);
      expect(isDatabaseDown(failure)).toBe(true);

      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows[0]!.one).toBe(1);
    } finally {
      await admin.end();
      await database.destroy();
    }
  });
});
