import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** Drafts whose scheduled time has come, for the scheduled-posts job. */
export class ScheduledPostsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Due scheduled drafts, oldest schedule first, with what publishing them needs. */
  due(now: string, limit: number) {
    return this.db
      .selectFrom('blogs')
      .select(['id', 'blog_id', 'creator_id', 'title', 'description', 'content', 'tags'])
      .where('scheduled_at', 'is not', null)
      .where('scheduled_at', '<=', now)
      .where('draft', '=', 1)
      .orderBy('scheduled_at')
      .limit(limit)
      .execute();
  }

  /**
   * Takes the post's schedule if it is still there (conditional UPDATE): of two instances, or a
   * job racing the author's cancel, only one sees a row changed. Run inside the publishing transaction.
   */
  async claim(id: string, now: string, db: Kysely<Database>): Promise<boolean> {
    const result = await db
      .updateTable('blogs')
      .set({ scheduled_at: null })
      .where('id', '=', id)
      .where('scheduled_at', 'is not', null)
      .where('scheduled_at', '<=', now)
      .where('draft', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Drops a schedule the job could not honour (the post is no longer publishable). */
  async cancel(id: string): Promise<void> {
    await this.db.updateTable('blogs').set({ scheduled_at: null }).where('id', '=', id).execute();
  }
}
