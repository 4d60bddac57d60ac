import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { daysAgo, inBatches } from './batches';
import type { JobRun } from './scheduler';

/** Delivered mail leaves the outbox after `days` (unsent mail stays: the worker still retries it). */
export function sentMailCleanup(db: Kysely<Database>, days: number): JobRun {
  return async (ctx) => {
    const cutoff = daysAgo(days);
    const sentMail = await inBatches(ctx, async (size) => {
      const result = await db
        .deleteFrom('mail_outbox')
        .where('id', 'in', (eb) => eb.selectFrom('mail_outbox').select('id').where('sent_at', '<', cutoff).limit(size))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
    return { sentMail };
  };
}
