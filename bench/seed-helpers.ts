import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../apps/server/src/config';
import { createDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { type BulkWriter, type ColumnType, postgresWriter, type Row, sqliteWriter } from './bulk-writer';
import { Progress } from './seed-data';

/** Unique (a, b) pairs from a sampler, as sorted keys a * base + b. */
export function uniquePairs(count: number, base: number, sample: () => [number, number] | null, label: string): Float64Array {
  const keys = new Float64Array(count);
  let n = 0;
  const progress = new Progress(label, count);
  for (let i = 0; i < count; i++) {
    const pair = sample();
    if (pair) keys[n++] = pair[0] * base + pair[1];
    if (i % 100_000 === 0) progress.tick(i);
  }
  progress.tick(count);
  const sorted = keys.subarray(0, n).sort();
  let m = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[m++] = sorted[i]!;
  return sorted.subarray(0, m);
}

export async function insertStream(
  writer: BulkWriter,
  label: string,
  total: number,
  table: string,
  columns: Parameters<BulkWriter['insert']>[1],
  rowAt: (i: number) => Row | null,
  ignore = false,
) {
  const progress = new Progress(label, total);
  const BATCH = 20_000;
  // The next batch is made while the database writes the previous one (PostgreSQL works in its own process).
  let pending: Promise<void> = Promise.resolve();
  for (let i = 0; i < total; i += BATCH) {
    const rows: Row[] = [];
    for (let j = i; j < Math.min(total, i + BATCH); j++) {
      const r = rowAt(j);
      if (r) rows.push(r);
    }
    await pending;
    progress.tick(i);
    pending = writer.insert(table, columns, rows, ignore);
  }
  await pending;
  progress.tick(total);
}

const STATE = 'seed_dropped_indexes';

/**
 * Drops the secondary indexes (not primary keys or unique constraints) before a bulk load and
 * remembers their definitions in a table, so a seed that dies half-way still rebuilds them on
 * the next run. Building an index once over sorted data is much cheaper than keeping it
 * current through millions of random inserts.
 */
export async function dropSecondaryIndexes(writer: BulkWriter, engine: 'sqlite' | 'postgres') {
  await writer.exec(`CREATE TABLE IF NOT EXISTS ${STATE} (name text PRIMARY KEY, sql text NOT NULL)`);
  const indexes =
    engine === 'sqlite'
      ? await writer.all<{ name: string; sql: string }>(
          `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name <> '${STATE}'`,
        )
      : await writer.all<{ name: string; sql: string }>(
          `SELECT indexname AS name, indexdef AS sql FROM pg_indexes i WHERE schemaname = current_schema()
             AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
        );
  for (const { name, sql } of indexes) {
    const q = (v: string) => `'${v.replaceAll("'", "''")}'`;
    await writer.exec(`INSERT INTO ${STATE} (name, sql) VALUES (${q(name)}, ${q(sql)}) ON CONFLICT DO NOTHING`);
    await writer.exec(`DROP INDEX IF EXISTS ${name}`);
  }
}

/** Builds the indexes dropSecondaryIndexes took away, with a progress bar, then forgets them. */
export async function restoreSecondaryIndexes(writer: BulkWriter) {
  const indexes = await writer.all<{ name: string; sql: string }>(`SELECT name, sql FROM ${STATE} ORDER BY name`);
  const progress = new Progress('indexes', indexes.length);
  progress.tick(0);
  let done = 0;
  for (const { name, sql } of indexes) {
    await writer.exec(sql.replace(/^CREATE (UNIQUE )?INDEX /i, (m) => `${m}IF NOT EXISTS `));
    await writer.exec(`DELETE FROM ${STATE} WHERE name = '${name}'`);
    progress.tick(++done);
  }
  await writer.exec(`DROP TABLE ${STATE}`);
}

/** Migrates the configured database, then opens the fastest bulk writer for its engine. */
export async function openWriter(config: Config): Promise<{ writer: BulkWriter; engine: 'sqlite' | 'postgres' }> {
  const handle = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'inkwell.sqlite') });
  await migrateToLatest(handle.db);
  await handle.destroy();
  if (handle.engine === 'postgres')
    return { writer: postgresWriter(new pg.Pool({ connectionString: config.databaseUrl, max: 2 })), engine: 'postgres' };
  return { writer: sqliteWriter(new BetterSqlite3(path.join(config.dataDir, 'inkwell.sqlite'))), engine: 'sqlite' };
}

/**
 * Every table of the app's schema, read from the database: --reset empties them all, so nothing of
 * the old site outlives it (a fixed list had left series, blocks, reports, revisions, the audit log,
 * SQLite's search vocabulary and PostgreSQL's search tables, whose rows for deleted posts made every
 * search answer 500). Left alone: the migrations' own tables, SQLite's statistics, and the FTS
 * index's shadow tables (emptied through the index itself).
 */
export async function appTables(writer: BulkWriter, engine: 'sqlite' | 'postgres'): Promise<string[]> {
  if (engine === 'postgres') {
    const rows = await writer.all(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT LIKE 'kysely\\_%'",
    );
    return rows.map((r) => String(r.name));
  }
  const rows = await writer.all(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'kysely\\_%' ESCAPE '\\'",
  );
  const indexes = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(String(r.sql))).map((r) => String(r.name));
  return rows.map((r) => String(r.name)).filter((name) => !indexes.some((index) => name.startsWith(`${index}_`)));
}

/** With --reset, empties every table of the app; without it, refuses a database that has users. */
export async function emptyOrRefuse(writer: BulkWriter, engine: 'sqlite' | 'postgres', reset: boolean | undefined): Promise<void> {
  if (reset) {
    const tables = await appTables(writer, engine);
    if (engine === 'postgres') await writer.exec(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')} CASCADE`);
    else for (const t of tables) await writer.exec(`DELETE FROM "${t}"`);
  } else if ((await writer.all('SELECT id FROM users LIMIT 1')).length) {
    throw new Error('The database already has users: pass --reset to empty it first.');
  }
}

/** The users table's columns in the order seeded rows list them (seed.ts, realtime-setup.ts). */
export const USER_COLUMNS: [string, ColumnType][] = [
  ['id', 'uuid'],
  ['email', 'text'],
  ['name', 'text'],
  ['username', 'text'],
  ['password_hash', 'text'],
  ['bio', 'text'],
  ['profile_pic', 'text'],
  ['google_auth', 'int'],
  ['google_sub', 'text'],
  ['email_verified', 'int'],
  ['show_liked_blogs', 'int'],
  ['show_saved_blogs', 'int'],
  ['token_version', 'int'],
  ['follower_count', 'int'],
  ['following_count', 'int'],
  ['published_count', 'int'],
  ['created_at', 'time'],
  ['updated_at', 'time'],
];

/** Runs one finishing step, printing its name and how long it took. */
export async function timedStep(label: string, run: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  process.stdout.write(`${label} ...`);
  await run();
  console.log(` ${((Date.now() - started) / 1000).toFixed(0)}s`);
}

/** Planner statistics after the load (and one FTS5 segment on SQLite), as the last step. */
export async function analyze(writer: BulkWriter, engine: 'sqlite' | 'postgres'): Promise<void> {
  const label = `analyze    (${engine === 'sqlite' ? 'merging the full-text index, ' : ''}statistics for the query planner)`;
  await timedStep(label, async () => {
    // VACUUM sets PostgreSQL's visibility map, which index-only scans need.
    if (engine === 'postgres') await writer.exec('VACUUM ANALYZE');
    else {
      // One FTS5 segment instead of the dozens a bulk load leaves: every search reads fewer b-trees.
      await writer.exec("INSERT INTO blogs_fts(blogs_fts) VALUES('optimize')");
      // Counts for the planner, without the samples of values the server drops at start (db/planner-statistics.ts).
      await writer.exec('ANALYZE; PRAGMA optimize; DELETE FROM sqlite_stat4;');
    }
  });
}
