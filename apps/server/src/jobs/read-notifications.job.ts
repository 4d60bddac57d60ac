import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../db/schema';
import { daysAgo, inBatches } from './batches';
import type { JobRun } from './scheduler';

/** Read notifications older than `days` are deleted; unread ones stay however old. */
export function readNotificationsCleanup(db: Kysely<Database>, days: number): JobRun {
  return async (ctx) => {
    const cutoff = daysAgo(days);
    const readNotifications = await inBatches(ctx, async (size) => {
      const result = await db
        .deleteFrom('notifications')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('notifications')
            .select('id')
            // Written out, not a parameter, so the planner can match the partial index (migration 0027).
            .where(sql<SqlBool>`is_read = 1`)
            .where('created_at', '<', cutoff)
            .limit(size),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
    return { readNotifications };
  };
}
