import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { daysAgo, inBatches } from './batches';
import type { JobRun } from './scheduler';

/** Never verified, no sign-up since `cutoff`, and no posts (an account that somehow has some stays). */
const forgottenSince = (cutoff: string) => (eb: ExpressionBuilder<Database, 'users'>) =>
  eb.and([
    eb('users.email_verified', '=', 0),
    eb('users.created_at', '<', cutoff),
    eb.not(
      eb.exists(
        eb
          .selectFrom('email_verifications')
          .select('email_verifications.id')
          .whereRef('email_verifications.user_id', '=', 'users.id')
          .where('email_verifications.created_at', '>=', cutoff),
      ),
    ),
    eb.not(eb.exists(eb.selectFrom('blogs').select('blogs.id').whereRef('blogs.creator_id', '=', 'users.id'))),
  ]);

/**
 * Accounts whose address was never verified, `days` after their last sign-up: their links have
 * long expired, nobody can sign in to them, and they hold the address and the username. Rows that
 * point at the account go with it (ON DELETE CASCADE); the DELETE re-checks every condition, so a
 * sign-up made meanwhile keeps its account.
 */
export function unverifiedAccountsCleanup(db: Kysely<Database>, days: number): JobRun {
  return async (ctx) => {
    const forgotten = forgottenSince(daysAgo(days));
    const unverifiedAccounts = await inBatches(ctx, async (size) => {
      const batch = await db.selectFrom('users').select('users.id').where(forgotten).orderBy('users.created_at').limit(size).execute();
      if (!batch.length) return 0;
      await db
        .deleteFrom('users')
        .where(
          'users.id',
          'in',
          batch.map((r) => r.id),
        )
        .where(forgotten)
        .execute();
      return batch.length;
    });
    return { unverifiedAccounts };
  };
}
