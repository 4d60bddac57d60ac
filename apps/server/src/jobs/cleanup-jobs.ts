import type { Kysely } from 'kysely';
import type { Config } from '../config';
import { isPostgres } from '../db/dialect';
import type { Database } from '../db/schema';
import type { Storage } from '../storage/storage';
import { expiredTokensCleanup } from './expired-tokens.job';
import { readNotificationsCleanup } from './read-notifications.job';
import type { Scheduler } from './scheduler';
import { searchRecentUpkeep } from './search-recent.job';
import { sentMailCleanup } from './sent-mail.job';
import { unattachedUploadsCleanup } from './unattached-uploads.job';
import { unconfirmedSubscribersCleanup } from './unconfirmed-subscribers.job';
import { unverifiedAccountsCleanup } from './unverified-accounts.job';

const HOUR = 3600_000;

/** The jobs that keep the data clean; each is idempotent and removes in batches. */
export function registerCleanupJobs(scheduler: Scheduler, deps: { db: Kysely<Database>; storage: Storage; config: Config }): void {
  const { db, storage, config } = deps;
  const { retention } = config;
  scheduler.register('unattached-uploads', HOUR, unattachedUploadsCleanup(db, storage, retention.unattachedUploadHours));
  scheduler.register('expired-tokens', HOUR, expiredTokensCleanup(db));
  scheduler.register('sent-mail', HOUR, sentMailCleanup(db, retention.sentMailDays));
  scheduler.register('read-notifications', 6 * HOUR, readNotificationsCleanup(db, retention.readNotificationDays));
  scheduler.register('unconfirmed-subscribers', 6 * HOUR, unconfirmedSubscribersCleanup(db, retention.unconfirmedSubscriberDays));
  scheduler.register('unverified-accounts', 6 * HOUR, unverifiedAccountsCleanup(db, retention.unverifiedAccountDays));
  // PostgreSQL only: search's table of the newest posts (migration 0026) stays their size.
  if (isPostgres(db)) scheduler.register('search-recent', HOUR / 6, searchRecentUpkeep(db));
}
