import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../../test/helpers';
import { createDatabase } from './database';
import { migrateToLatest } from './migrate';

if (ENGINE !== 'sqlite') console.warn('SKIPPED on PostgreSQL: sqlite_stat4 is SQLite’s (it runs in the SQLite project).');
describe.skipIf(ENGINE !== 'sqlite')('SQLite planner statistics', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-stats-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps ANALYZE's row counts and drops its samples of values at start (they made every bound statement prepare again)", async () => {
    const database = createDatabase({ sqliteFile: path.join(dir, 'inkwell.sqlite') });
    try {
      await migrateToLatest(database.db);
      // An operator's (or the seeder's) ANALYZE: counts in sqlite_stat1, samples in sqlite_stat4.
      await sql`ANALYZE`.execute(database.db);
      const count = async (table: string) =>
        (await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(database.db)).rows[0]!.n;
      expect(await count('sqlite_stat4')).toBeGreaterThan(0);
      const counts = await count('sqlite_stat1');
      expect(counts).toBeGreaterThan(0);

      await migrateToLatest(database.db); // what every start runs

      expect(await count('sqlite_stat4')).toBe(0);
      expect(await count('sqlite_stat1')).toBe(counts);
    } finally {
      await database.destroy();
    }
  });
});
