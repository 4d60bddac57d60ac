import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

export type ColumnType = 'uuid' | 'text' | 'int' | 'time';
export type Row = (string | number | null)[];

/** Bulk inserts for the seeder: prepared statements in big transactions (SQLite), unnest arrays (PostgreSQL). */
export interface BulkWriter {
  insert(table: string, columns: [string, ColumnType][], rows: Row[], conflictNothing?: boolean): Promise<void>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export function sqliteWriter(db: BetterSqlite3.Database): BulkWriter {
  db.pragma('synchronous = OFF');
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
    async close() {
      db.pragma('synchronous = NORMAL');
      db.close();
    },
  };
}

const PG_TYPE: Record<ColumnType, string> = { uuid: 'uuid[]', text: 'text[]', int: 'int[]', time: 'timestamptz[]' };

export function postgresWriter(pool: pg.Pool): BulkWriter {
  return {
    async insert(table, columns, rows, conflictNothing) {
      const CHUNK = 5000;
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        const arrays = columns.map((_, c) => chunk.map((r) => r[c]));
        const sql = `INSERT INTO ${table} (${columns.map((c) => c[0]).join(', ')}) SELECT * FROM unnest(${columns
          .map((c, j) => `$${j + 1}::${PG_TYPE[c[1]]}`)
          .join(', ')})${conflictNothing ? ' ON CONFLICT DO NOTHING' : ''}`;
        await pool.query(sql, arrays);
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async close() {
      await pool.end();
    },
  };
}
