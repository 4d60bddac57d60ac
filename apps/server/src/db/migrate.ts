import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as m0001 from './migrations/0001_initial';
import * as m0002 from './migrations/0002_search';
import * as m0003 from './migrations/0003_scale';
import * as m0004 from './migrations/0004_write_path';

/** Listed statically so the bundled server carries its migrations. Add new ones here. */
const migrations: Record<string, Migration> = {
  '2026_11_21_0001_initial': m0001,
  '2026_11_21_0002_search': m0002,
  '2026_11_22_0003_scale': m0003,
  '2026_11_22_0004_write_path': m0004,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<void> {
  // With a schema, Kysely keeps its bookkeeping tables there rather than looking across schemas.
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
