import type { Kysely } from 'kysely';
import { nowIso } from '../db/ids';
import type { Database } from '../db/schema';
import { inBatches } from './batches';
import type { JobRun } from './scheduler';

/**
 * Tables of single-use link tokens and the column that says until when a row's link works.
 * An expired link answers the same as an unknown one, so expired rows only take space.
 */
const TOKEN_TABLES = {
  emailVerifications: { table: 'email_verifications', expiresAt: 'expires_at' },
  passwordResets: { table: 'password_resets', expiresAt: 'expires_at' },
  transferRequests: { table: 'transfer_requests', expiresAt: 'expires_at' },
} as const;

export function expiredTokensCleanup(db: Kysely<Database>): JobRun {
  return async (ctx) => {
    const now = nowIso();
    const report: Record<string, number> = {};
    // The tables differ; the statement is the same shape for each.
    const any = db as unknown as Kysely<Record<string, { id: string } & Record<string, string>>>;
    for (const [kind, { table, expiresAt }] of Object.entries(TOKEN_TABLES)) {
      report[kind] = await inBatches(ctx, async (size) => {
        const result = await any
          .deleteFrom(table)
          .where('id', 'in', (eb) => eb.selectFrom(table).select('id').where(expiresAt, '<', now).limit(size))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      });
    }
    return report;
  };
}
