import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../apps/server/src/config';
import { createDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { type BulkWriter, postgresWriter, type Row, sqliteWriter } from './bulk-writer';
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
  for (let i = 0; i < total; i += BATCH) {
    const rows: Row[] = [];
    for (let j = i; j < Math.min(total, i + BATCH); j++) {
      const r = rowAt(j);
      if (r) rows.push(r);
    }
    await writer.insert(table, columns, rows, ignore);
    progress.tick(Math.min(total, i + BATCH));
  }
}

/** Migrates the configured database, then opens the fastest bulk writer for its engine. */
export async function openWriter(config: Config): Promise<{ writer: BulkWriter; engine: 'sqlite' | 'postgres' }> {
  const handle = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'inkwell.sqlite') });
  await migrateToLatest(handle.db);
  await handle.destroy();
  if (handle.engine === 'postgres')
    return { writer: postgresWriter(new pg.Pool({ connectionString: config.databaseUrl, max: 4 })), engine: 'postgres' };
  return { writer: sqliteWriter(new BetterSqlite3(path.join(config.dataDir, 'inkwell.sqlite'))), engine: 'sqlite' };
}
