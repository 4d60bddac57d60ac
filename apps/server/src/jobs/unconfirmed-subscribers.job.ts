import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { DigestRepository } from '../modules/newsletter/digest.repo';
import { daysAgo, inBatches } from './batches';
import type { JobRun } from './scheduler';

/** Newsletter sign-ups never confirmed leave after `days` (their link stops working then too). */
export function unconfirmedSubscribersCleanup(db: Kysely<Database>, days: number): JobRun {
  const digests = new DigestRepository(db);
  return async (ctx) => {
    const cutoff = daysAgo(days);
    const unconfirmedSubscribers = await inBatches(ctx, (size) => digests.deleteUnconfirmedBefore(cutoff, size));
    return { unconfirmedSubscribers };
  };
}
