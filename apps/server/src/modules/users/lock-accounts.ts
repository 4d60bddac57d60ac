import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { CountersRepository } from './counters.repo';
import type { UsersRepository } from './users.repo';

/**
 * Before an account is deleted or moved (PostgreSQL): locks its row and its follow partners'
 * rows, in id order, as a follow's one statement locks its two users, so the two never wait on
 * each other in a circle. A follow of the account that commits before the lock is seen by the
 * second read; one that comes after waits, then finds the account gone (404). Returns every
 * partner whose counts the change must recount. SQLite's transaction holds the only connection.
 */
export async function lockAccountsAndPartners(
  accountIds: string[],
  deps: { users: UsersRepository; counters: CountersRepository },
  trx: Kysely<Database>,
  /** Rows locked with them whose partners are not read (a transfer's recipient). */
  alsoLock: string[] = [],
): Promise<string[]> {
  const partnersOf = async () => [...new Set((await Promise.all(accountIds.map((id) => deps.counters.followPartners(id, trx)))).flat())];
  const partners = await partnersOf();
  await deps.users.lockForChange([...new Set([...accountIds, ...alsoLock, ...partners])], trx);
  // Follows committed between the first read and the lock: rare, locked after the rest.
  const locked = new Set([...accountIds, ...alsoLock, ...partners]);
  const late = (await partnersOf()).filter((id) => !locked.has(id));
  await deps.users.lockForChange(late, trx);
  return [...partners, ...late];
}
