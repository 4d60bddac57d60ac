import { type Kysely, sql } from 'kysely';
import { inLists } from '../../db/in-lists';
import type { Database } from '../../db/schema';
import { commentPublicSql, publiclyVisibleSql } from '../../lib/policies';

export interface TouchedBlogs {
  reacted: string[];
  commented: string[];
}

/**
 * Bulk changes (account deletion, transfer) remove or move many rows at once; instead of
 * adjusting each denormalized counter by a delta, the affected rows recount from the real
 * rows, in the caller's transaction, so nothing is left stale. Ids that no longer exist are
 * simply not updated.
 */
export class CountersRepository {
  /**
   * Blogs whose counts change when the user's likes, saves and comments go or move: `reacted`
   * (their like and save counts) and `commented` (their comment counts, recounted one blog at a
   * time, so only where the user commented).
   */
  async blogsTouchedBy(userId: string, db: Kysely<Database>): Promise<TouchedBlogs> {
    const reacted = await db
      .selectFrom('likes')
      .select('blog_id')
      .where('user_id', '=', userId)
      .union(db.selectFrom('saves').select('blog_id').where('user_id', '=', userId))
      .execute();
    const commented = await db.selectFrom('comments').select('blog_id').distinct().where('user_id', '=', userId).execute();
    return { reacted: reacted.map((r) => r.blog_id), commented: commented.map((r) => r.blog_id) };
  }

  /** Comments whose like or reply counts change when the user's likes and comments go. */
  async commentsTouchedBy(userId: string, db: Kysely<Database>): Promise<string[]> {
    const rows = await db
      .selectFrom('comment_likes')
      .select('comment_id as id')
      .where('user_id', '=', userId)
      .union(
        db
          .selectFrom('comments')
          .select('parent_id as id')
          .where('user_id', '=', userId)
          .where('parent_id', 'is not', null)
          .$narrowType<{ id: string }>(),
      )
      .execute();
    return rows.map((r) => r.id);
  }

  /** Users on the other end of the user's follows, both directions. */
  async followPartners(userId: string, db: Kysely<Database>): Promise<string[]> {
    const rows = await db
      .selectFrom('follows')
      .select('following_id as id')
      .where('follower_id', '=', userId)
      .union(db.selectFrom('follows').select('follower_id as id').where('following_id', '=', userId))
      .execute();
    return rows.map((r) => r.id);
  }

  /** Storage keys of every file the user owns (read before the rows cascade away). */
  async uploadKeys(userId: string, db: Kysely<Database>): Promise<string[]> {
    const rows = await db.selectFrom('uploads').select('storage_key').where('owner_id', '=', userId).execute();
    return rows.map((r) => r.storage_key);
  }

  /** SQLite full-text rows of the user's blogs (null on PostgreSQL, which indexes a column of blogs itself). */
  async searchRowids(userId: string, db: Kysely<Database>): Promise<number[]> {
    const rows = await db
      .selectFrom('blogs')
      .select('search_rowid')
      .where('creator_id', '=', userId)
      .where('search_rowid', 'is not', null)
      .execute();
    return rows.map((r) => Number(r.search_rowid));
  }

  /** Like and save counts of the blogs reacted to, comment counts of those commented on (comment_count counts replies too, see below). */
  async recountBlogs(touched: TouchedBlogs, db: Kysely<Database>): Promise<void> {
    for (const part of inLists(touched.reacted)) {
      await db
        .updateTable('blogs')
        .set((eb) => ({
          like_count: eb
            .selectFrom('likes')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('likes.blog_id', '=', 'blogs.id'),
          save_count: eb
            .selectFrom('saves')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('saves.blog_id', '=', 'blogs.id'),
        }))
        .where('blogs.id', 'in', part)
        .execute();
    }
    await this.recountBlogComments(touched.commented, db);
  }

  /**
   * A blog's comment_count: the comments a reader sees, i.e. not hidden (issue 15) and with no
   * hidden comment above them, as hiding a comment acts like deleting it with its replies. A
   * recursive count per blog: both engines, no correlated CTE.
   */
  async recountBlogComments(ids: string[], db: Kysely<Database>): Promise<void> {
    for (const id of new Set(ids)) {
      await sql`UPDATE blogs SET comment_count = (
          WITH RECURSIVE tree(id) AS (
            SELECT c.id FROM comments c WHERE c.blog_id = ${id} AND c.parent_id IS NULL AND ${commentPublicSql('c')}
            UNION ALL
            SELECT r.id FROM comments r JOIN tree t ON r.parent_id = t.id WHERE ${commentPublicSql('r')})
          SELECT count(*) FROM tree)
        WHERE id = ${id}`.execute(db);
    }
  }

  /** reply_count counts direct replies only, and only those not hidden (issue 15). */
  async recountComments(ids: string[], db: Kysely<Database>): Promise<void> {
    for (const part of inLists(ids)) {
      await db
        .updateTable('comments')
        .set((eb) => ({
          like_count: eb
            .selectFrom('comment_likes')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('comment_likes.comment_id', '=', 'comments.id'),
          reply_count: eb
            .selectFrom('comments as r')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('r.parent_id', '=', 'comments.id')
            .where(commentPublicSql('r')),
        }))
        .where('comments.id', 'in', part)
        .execute();
    }
  }

  /** published_count counts published blogs only (drafts and hidden posts never show in counts). */
  async recountUsers(ids: string[], db: Kysely<Database>): Promise<void> {
    for (const part of inLists(ids)) {
      await db
        .updateTable('users')
        .set((eb) => ({
          follower_count: eb
            .selectFrom('follows')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('follows.following_id', '=', 'users.id'),
          following_count: eb
            .selectFrom('follows')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('follows.follower_id', '=', 'users.id'),
          published_count: eb
            .selectFrom('blogs')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('blogs.creator_id', '=', 'users.id')
            .where(publiclyVisibleSql('blogs')),
        }))
        .where('users.id', 'in', part)
        .execute();
    }
  }
}
