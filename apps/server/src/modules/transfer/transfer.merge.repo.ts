import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Moves what one account owns to another inside the caller's transaction. Rows keyed by
 * (thing, user) are copied with INSERT … SELECT … ON CONFLICT DO NOTHING and then deleted, so
 * a blog both users liked ends with one like. The recipient's id comes from a join on users
 * (not a bound parameter) so PostgreSQL types it as uuid without a cast.
 */
export class AccountMergeRepository {
  async moveBlogs(from: string, to: string, db: Kysely<Database>): Promise<number> {
    const r = await db.updateTable('blogs').set({ creator_id: to }).where('creator_id', '=', from).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async moveComments(from: string, to: string, db: Kysely<Database>): Promise<number> {
    const r = await db.updateTable('comments').set({ user_id: to }).where('user_id', '=', from).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  moveUploads(from: string, to: string, db: Kysely<Database>) {
    return db.updateTable('uploads').set({ owner_id: to }).where('owner_id', '=', from).execute();
  }

  /** The sender's profile pictures mean nothing to the recipient; their rows go, the keys are returned for deleteFiles. */
  async dropAvatars(from: string, db: Kysely<Database>): Promise<string[]> {
    const rows = await db
      .selectFrom('uploads')
      .select(['id', 'storage_key'])
      .where('owner_id', '=', from)
      .where('kind', '=', 'avatar')
      .where('blog_id', 'is', null)
      .execute();
    if (rows.length) {
      await db
        .deleteFrom('uploads')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    }
    return rows.map((r) => r.storage_key);
  }

  async mergeReactions(table: 'likes' | 'saves', from: string, to: string, db: Kysely<Database>): Promise<void> {
    await db
      .insertInto(table)
      .columns(['user_id', 'blog_id', 'created_at'])
      .expression(
        db
          .selectFrom(`${table} as r` as 'likes as r')
          .innerJoin('users as u', (j) => j.on('u.id', '=', to))
          .select(['u.id', 'r.blog_id', 'r.created_at'])
          .where('r.user_id', '=', from),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db.deleteFrom(table).where('user_id', '=', from).execute();
  }

  async mergeCommentLikes(from: string, to: string, db: Kysely<Database>): Promise<void> {
    await db
      .insertInto('comment_likes')
      .columns(['comment_id', 'user_id', 'created_at'])
      .expression(
        db
          .selectFrom('comment_likes as cl')
          .innerJoin('users as u', (j) => j.on('u.id', '=', to))
          .select(['cl.comment_id', 'u.id', 'cl.created_at'])
          .where('cl.user_id', '=', from),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db.deleteFrom('comment_likes').where('user_id', '=', from).execute();
  }

  /**
   * The sender's followers now follow the recipient (keeping when they first followed),
   * except the recipient itself and those who already did. Returns how many were added.
   */
  async mergeFollowers(from: string, to: string, db: Kysely<Database>): Promise<number> {
    const r = await db
      .insertInto('follows')
      .columns(['follower_id', 'following_id', 'created_at'])
      .expression(
        db
          .selectFrom('follows as f')
          .innerJoin('users as u', (j) => j.on('u.id', '=', to))
          .select(['f.follower_id', 'u.id', 'f.created_at'])
          .where('f.following_id', '=', from)
          .where('f.follower_id', '<>', to),
      )
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0);
  }
}
