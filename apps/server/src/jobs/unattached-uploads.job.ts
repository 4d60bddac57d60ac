import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Storage } from '../storage/storage';
import { hoursAgo, inBatches } from './batches';
import type { JobRun } from './scheduler';

/** Files deleted from storage at once (an object store takes them as parallel requests). */
const FILE_CONCURRENCY = 16;

/** An upload that is its owner's current profile picture is in use without a blog. */
const notCurrentAvatar = (eb: ExpressionBuilder<Database, 'uploads'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('users')
        .select('users.id')
        .whereRef('users.id', '=', 'uploads.owner_id')
        .whereRef('users.profile_pic', '=', 'uploads.url'),
    ),
  );

/**
 * Uploads never linked to a post (and not a current profile picture) after `hours`: images
 * uploaded in the editor for a post that was never saved. Rows go first (re-checked in the
 * DELETE, so one linked meanwhile stays), then their files; a file that cannot be deleted is
 * logged and left (its row is gone, so nothing shows it).
 */
export function unattachedUploadsCleanup(db: Kysely<Database>, storage: Storage, hours: number): JobRun {
  return async (ctx) => {
    const cutoff = hoursAgo(hours);
    let files = 0;
    const uploads = await inBatches(ctx, async (size) => {
      const candidates = await db
        .selectFrom('uploads')
        .select('id')
        .where('blog_id', 'is', null)
        .where('created_at', '<', cutoff)
        .where(notCurrentAvatar)
        .orderBy('created_at')
        .limit(size)
        .execute();
      if (!candidates.length) return 0;
      const deleted = await db
        .deleteFrom('uploads')
        .where(
          'id',
          'in',
          candidates.map((c) => c.id),
        )
        .where('blog_id', 'is', null)
        .where(notCurrentAvatar)
        .returning('storage_key')
        .execute();
      for (let i = 0; i < deleted.length; i += FILE_CONCURRENCY) {
        const keys = deleted.slice(i, i + FILE_CONCURRENCY).map((r) => r.storage_key);
        const results = await Promise.allSettled(keys.map((key) => storage.delete(key)));
        results.forEach((r, j) => {
          if (r.status === 'fulfilled') files++;
          else ctx.log.warn({ err: r.reason, key: keys[j] }, 'could not delete an unattached upload file');
        });
      }
      return candidates.length;
    });
    return { uploads, files };
  };
}
