import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../test/helpers';
import { isDatabaseDown } from '../lib/error-handler';
import { createDatabase, pgTimestampToIso } from './database';
import { migrateToLatest } from './migrate';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (ENGINE !== 'postgres')
  console.warn(
    'SKIPPED on SQLite: the connection tests need a PostgreSQL server to cut and a pool to watch (they run in the PostgreSQL project).',
  );
describe.skipIf(ENGINE !== 'postgres')('PostgreSQL connections', () => {
  it('a database that does not exist stops the start with a message naming DATABASE_URL', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = '/inkwell_no_such_database';
    const database = createDatabase({ databaseUrl: url.toString(), sqliteFile: '', poolSize: 1 });
    try {
      await expect(migrateToLatest(database.db)).rejects.toThrow(
        /^DATABASE_URL: cannot connect to the database: database "inkwell_no_such_database" does not exist$/,
      );
    } finally {
      await database.destroy();
    }
  });

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

  // JIT compiled a long thread's replies on every read: 300 ms beside a 45 ms read (docs/decisions.md, Comments).
  it('compiles no statement with JIT, and keeps the options PGOPTIONS and DATABASE_URL give', async () => {
    const settings = async (databaseUrl: string, pgSchema?: string) => {
      const database = createDatabase({ databaseUrl, sqliteFile: '', poolSize: 1, pgSchema });
      try {
        const { rows } = await sql<{ jit: string; path: string; timeout: string }>`select current_setting('jit') as jit,
          current_setting('search_path') as path, current_setting('statement_timeout') as timeout`.execute(database.db);
        return rows[0];
      } finally {
        await database.destroy();
      }
    };
    expect(await settings(process.env.TEST_DATABASE_URL!, 'inkwell_schema_x')).toMatchObject({ jit: 'off', path: 'inkwell_schema_x' });
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', '-c statement_timeout=4321');
    expect(await settings(url.toString())).toMatchObject({ jit: 'off', timeout: '4321ms' });
    const before = process.env.PGOPTIONS;
    process.env.PGOPTIONS = '-c statement_timeout=1234';
    try {
      expect(await settings(process.env.TEST_DATABASE_URL!)).toMatchObject({ jit: 'off', timeout: '1234ms' });
    } finally {
      if (before === undefined) delete process.env.PGOPTIONS;
      else process.env.PGOPTIONS = before;
    }
  });

  // pg closes a connection idle for 10 s by default; the next burst of writes then paid a new
  // server process, which plans each named statement again (docs/performance.md, eighth session).
  it('keeps an idle pooled connection past pg’s 10 s default', { timeout: 20_000 }, async () => {
    const database = createDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, sqliteFile: '', poolSize: 1 });
    try {
      const pid = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0]!.pid;
      const before = await pid();
      await sleep(10_500);
      expect(await pid()).toBe(before);
    } finally {
      await database.destroy();
    }
  });
});

describe('PostgreSQL timestamps as ISO strings', () => {
  it('gives what Date parsing gives, for every fraction length, with and without a time zone', () => {
    const slow = (v: string) => new Date(v.includes('+') || v.endsWith('Z') ? v : `${v}Z`).toISOString();
    const samples = ['2026-11-26 15:00:21+00', '2026-11-26 15:00:21', '0999-01-01 00:00:00+00', '2024-02-29 23:59:59.999999+00'];
    for (let digits = 1; digits <= 6; digits++) samples.push(`2026-01-05 07:08:09.${'987654'.slice(0, digits)}+00`);
    for (let i = 0; i < 200; i++) {
      const d = new Date(Date.UTC(1990 + (i % 50), i % 12, 1 + (i % 28), i % 24, (i * 7) % 60, (i * 13) % 60));
      samples.push(`${d.toISOString().slice(0, 19).replace('T', ' ')}.${String(i * 4999).padStart(6, '0')}+00`);
    }
    for (const v of samples) expect(pgTimestampToIso(v), v).toBe(slow(v));
  });

  it('reads other zones and forms through Date', () => {
    expect(pgTimestampToIso('2026-11-26 16:00:21.5+01')).toBe('2026-11-26T15:00:21.500Z');
    expect(pgTimestampToIso('2026-11-26 20:30:00+05:30')).toBe('2026-11-26T15:00:00.000Z');
  });
});
