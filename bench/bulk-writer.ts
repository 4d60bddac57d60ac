import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

export type ColumnType = 'uuid' | 'text' | 'int' | 'time';
export type Row = (string | number | null)[];

/**
 * Bulk inserts for the seeder: prepared statements in big transactions with journaling and
 * foreign-key checks off (SQLite), unnest arrays with asynchronous commit and without foreign-key
 * triggers (PostgreSQL). The seeder makes consistent rows, so the checks would only cost time.
 */
export interface BulkWriter {
  insert(table: string, columns: [string, ColumnType][], rows: Row[], conflictNothing?: boolean): Promise<void>;
  exec(sql: string): Promise<void>;
  all<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

export function sqliteWriter(db: BetterSqlite3.Database): BulkWriter {
  // Back to WAL with NORMAL sync on close; a crash mid-seed means seeding again with --reset.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -1000000');
  db.pragma('temp_store = MEMORY');
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    async insert(table, columns, rows, conflictNothing) {
      const key = `${table}:${columns.map((c) => c[0]).join(',')}:${conflictNothing}`;
      let stmt = cache.get(key);
      if (!stmt) {
        stmt = db.prepare(
          `INSERT ${conflictNothing ? 'OR IGNORE ' : ''}INTO ${table} (${columns.map((c) => c[0]).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        );
        cache.set(key, stmt);
      }
      const s = stmt;
      db.transaction((batch: Row[]) => {
        for (const r of batch) s.run(r);
      })(rows);
    },
    async exec(sql) {
      db.exec(sql);
    },
    async all<T>(sql: string) {
      return db.prepare(sql).all() as T[];
    },
    async close() {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.close();
    },
  };
}

const PG_TYPE: Record<ColumnType, string> = { uuid: 'uuid[]', text: 'text[]', int: 'int[]', time: 'timestamptz[]' };

/** A lost or refused connection (a PostgreSQL restart), as opposed to an error in the statement. */
function connectionLost(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08006', '08003', '08001'].includes(e.code ?? '') ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message ?? '')
  );
}

/**
 * Every statement the seeder sends is safe to repeat (inserts skip rows already there), so one
 * cut off by a server restart is sent again once the server is back: the seed goes on.
 */
async function retrying<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!connectionLost(err) || attempt > 300) throw err;
      if (attempt === 1) process.stdout.write(`\n  connection lost (${(err as Error).message}); retrying until PostgreSQL is back\n`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

export function postgresWriter(pool: pg.Pool): BulkWriter {
  pool.on('connect', (client) => {
    // Asynchronous commit for this session only; replica mode skips foreign-key triggers and
    // needs a superuser, so without one the checks simply stay on.
    client.query('SET synchronous_commit = off').catch(() => {});
    client.query('SET session_replication_role = replica').catch(() => {});
    client.query("SET maintenance_work_mem = '512MB'").catch(() => {});
  });
  // A connection lost while idle (a server restart) must not end the process; the next query reconnects.
  pool.on('error', () => {});
  return {
    async insert(table, columns, rows, conflictNothing) {
      const CHUNK = 5000;
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        const arrays = columns.map((_, c) => chunk.map((r) => r[c]));
        const sql = (skipExisting: boolean) =>
          `INSERT INTO ${table} (${columns.map((c) => c[0]).join(', ')}) SELECT * FROM unnest(${columns
            .map((c, j) => `$${j + 1}::${PG_TYPE[c[1]]}`)
            .join(', ')})${skipExisting ? ' ON CONFLICT DO NOTHING' : ''}`;
        // A retry may follow a chunk that was committed before the connection went: skip its rows.
        let first = true;
        await retrying(() => {
          const q = pool.query(sql(!!conflictNothing || !first), arrays);
          first = false;
          return q;
        });
      }
    },
    async exec(sql) {
      await retrying(() => pool.query(sql));
    },
    async all<T>(sql: string) {
      return (await retrying(() => pool.query(sql))).rows as T[];
    },
    async close() {
      await pool.end();
    },
  };
}
