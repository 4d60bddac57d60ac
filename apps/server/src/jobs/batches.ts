import type { JobContext } from './scheduler';

/** Rows per statement: short locks and transactions, however large the table. */
export const BATCH_SIZE = 1000;

/**
 * Runs `step` (which removes up to `size` rows and returns how many it looked at) until a
 * batch comes back short, yielding and renewing the lease between batches. Returns the total.
 */
export async function inBatches(ctx: JobContext, step: (size: number) => Promise<number>, size = BATCH_SIZE): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step(size);
    total += n;
    if (n < size || !(await ctx.keepGoing())) return total;
  }
}

export const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();
export const daysAgo = (days: number) => hoursAgo(days * 24);
