import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { isDatabaseDown } from '../lib/error-handler';
import * as m0001 from './migrations/0001_initial';
import * as m0002 from './migrations/0002_search';
import * as m0003 from './migrations/0003_scale';
import * as m0004 from './migrations/0004_write_path';
import * as m0005 from './migrations/0005_account_safety';
import * as m0006 from './migrations/0006_search_vocabulary';
import * as m0009 from './migrations/0009_sitemap';
import * as m0010 from './migrations/0010_jobs';
import * as m0011 from './migrations/0011_canonical_tags';
import * as m0013 from './migrations/0013_newsletter';
import * as m0016 from './migrations/0016_revisions';
import * as m0017 from './migrations/0017_scheduled';
import * as m0018 from './migrations/0018_series';
import * as m0019 from './migrations/0019_blocks';
import * as m0020 from './migrations/0020_moderation';
import * as m0021 from './migrations/0021_search_docs';
import * as m0022 from './migrations/0022_notification_key';
import * as m0023 from './migrations/0023_list_order_indexes';
import * as m0024 from './migrations/0024_user_relations';
import * as m0025 from './migrations/0025_search_index_lean';
import * as m0026 from './migrations/0026_search_recent';
import * as m0027 from './migrations/0027_write_path_pages';
import * as m0028 from './migrations/0028_top_level_comments';
import * as m0029 from './migrations/0029_published_at';
import * as m0030 from './migrations/0030_upload_uses';
import * as m0031 from './migrations/0031_unverified_users';
import * as m0032 from './migrations/0032_search_brackets';
import * as m0033 from './migrations/0033_moderation_hidden_list';
import * as m0034 from './migrations/0034_notification_fanouts';
import * as m0035 from './migrations/0035_series_author_order';
import { dropIndexSamples } from './planner-statistics';

/** Listed statically so the bundled server carries its migrations. Add new ones here. */
const migrations: Record<string, Migration> = {
  '2026_11_21_0001_initial': m0001,
  '2026_11_21_0002_search': m0002,
  '2026_11_22_0003_scale': m0003,
  '2026_11_22_0004_write_path': m0004,
  '2026_11_24_0005_account_safety': m0005,
  '2026_11_24_0006_search_vocabulary': m0006,
  '2026_11_24_0009_sitemap': m0009,
  '2026_11_24_0010_jobs': m0010,
  '2026_11_24_0011_canonical_tags': m0011,
  '2026_11_24_0013_newsletter': m0013,
  '2026_11_24_0016_revisions': m0016,
  '2026_11_25_0017_scheduled': m0017,
  '2026_11_25_0018_series': m0018,
  '2026_11_25_0019_blocks': m0019,
  '2026_11_25_0020_moderation': m0020,
  '2026_11_25_0021_search_docs': m0021,
  '2026_11_26_0022_notification_key': m0022,
  '2026_11_26_0023_list_order_indexes': m0023,
  '2026_11_26_0024_user_relations': m0024,
  '2026_11_26_0025_search_index_lean': m0025,
  '2026_11_26_0026_search_recent': m0026,
  '2026_11_26_0027_write_path_pages': m0027,
  '2026_11_27_0028_top_level_comments': m0028,
  '2026_11_30_0029_published_at': m0029,
  '2026_11_30_0030_upload_uses': m0030,
  '2026_11_30_0031_unverified_users': m0031,
  '2026_12_01_0032_search_brackets': m0032,
  '2026_12_02_0033_moderation_hidden_list': m0033,
  '2026_12_08_0034_notification_fanouts': m0034,
  '2026_12_08_0035_series_author_order': m0035,
};

/** Host not found, password or user refused (isDatabaseDown covers the rest: refused, gone, timed out). */
const CANNOT_CONNECT = new Set(['ENOTFOUND', '28P01', '28000']);

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<void> {
  // With a schema, Kysely keeps its bookkeeping tables there rather than looking across schemas.
  // Parallel work lands migrations out of number order (0009 before 0005): a database that already
  // ran a later one must still run an earlier one that arrived after it. Each migration stands alone.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  // Nothing ran because the server could not be reached, or refused this database or user: the
  // operator's setting to fix, named as a configuration error is (main.ts prints it without a stack).
  if (error && !failed && (isDatabaseDown(error) || CANNOT_CONNECT.has((error as { code?: string }).code ?? ''))) {
    throw new Error(`DATABASE_URL: cannot connect to the database: ${(error as Error).message}`);
  }
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  await dropIndexSamples(db);
}
