import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../db/dialect';
import { fillSearchRecent } from '../db/migrations/0026_search_recent';
import type { Database } from '../db/schema';
import { nthNewest } from '../modules/search/search.postgres';
import { RANKED_SPAN, RECENT_MARGIN } from '../modules/search/search.query';
import { inBatches } from './batches';
import type { JobRun } from './scheduler';

/**
 * PostgreSQL's search_recent (migration 0026) holds the newest `span + margin` rows of search_docs:
 * tops it up when deletions among the newest posts left part of the span out of it, and removes,
 * a batch at a time, the rows that new posts pushed past that. SQLite has no such table.
 */
export function searchRecentUpkeep(db: Kysely<Database>, span = RANKED_SPAN, margin = RECENT_MARGIN): JobRun {
  return async (ctx) => {
    if (!isPostgres(db)) return undefined;
    const keep = span + margin;
    const [docsEdge, recentEdge] = await Promise.all([nthNewest(db, 'search_docs', span), nthNewest(db, 'search_recent', span)]);
    let added = 0;
    if (docsEdge?.blog_id !== recentEdge?.blog_id) {
      added = Number((await sql.raw(fillSearchRecent(keep)).execute(db)).numAffectedRows ?? 0);
    }
    const cutoff = await nthNewest(db, 'search_docs', keep);
    const removed = !cutoff
      ? 0
      : await inBatches(ctx, async (size) => {
          const result = await sql`DELETE FROM search_recent WHERE blog_id IN (SELECT blog_id FROM search_recent
            WHERE (created_at, blog_id) < (${cutoff.created_at}, ${cutoff.blog_id}) LIMIT ${size})`.execute(db);
          return Number(result.numAffectedRows ?? 0);
        });
    return { added, removed };
  };
}
