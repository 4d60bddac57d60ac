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

  /** The sender's series (with their posts, which move with moveBlogs) become the recipient's. */
  async moveSeries(from: string, to: string, db: Kysely<Database>): Promise<number> {
    const r = await db.updateTable('series').set({ author_id: to }).where('author_id', '=', from).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * The sender's unsaved work on their posts (pending autosaves) follows the posts. Only a post's
   * author autosaves it, so the recipient has no row for these posts; the guard keeps the key unique anyway.
   */
  moveAutosaves(from: string, to: string, db: Kysely<Database>) {
    return db
      .updateTable('blog_autosaves')
      .set({ author_id: to })
      .where('author_id', '=', from)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('blog_autosaves as mine')
              .select('mine.blog_id')
              .whereRef('mine.blog_id', '=', 'blog_autosaves.blog_id')
              .where('mine.author_id', '=', to),
          ),
        ),
      )
      .execute();
  }

  /**
   * Blocks and mutes, both ways, become the recipient's: those the sender made (the people kept
   * away from the posts that now are the recipient's) and those made against the sender (a
   * transfer must not shed the blocks an account collected while keeping its posts and
   * followers). A row between the two accounts themselves is dropped (nobody blocks themselves).
   */
  async mergeRelations(from: string, to: string, db: Kysely<Database>): Promise<void> {
    const tables = [
      { table: 'user_blocks', actor: 'blocker_id', target: 'blocked_id' },
      { table: 'user_mutes', actor: 'muter_id', target: 'muted_id' },
    ] as const;
    const any = db as unknown as Kysely<any>;
    // The recipient now stands in the sender's blocks and mutes: their relations flag goes too
    // (the other side of each row has it already).
    await db
      .updateTable('users')
      .set({ relations: 1 })
      .where('id', '=', to)
      .where((eb) =>
        eb.exists(eb.selectFrom('users as sender').select('sender.id').where('sender.id', '=', from).where('sender.relations', '=', 1)),
      )
      .execute();
    for (const { table, actor, target } of tables) {
      for (const [fromSide, otherSide] of [
        [actor, target],
        [target, actor],
      ] as const) {
        await any
          .insertInto(table)
          .columns([fromSide, otherSide, 'created_at'])
          .expression(
            any
              .selectFrom(`${table} as r`)
              .innerJoin('users as u', (j) => j.on('u.id', '=', to))
              .select(['u.id', `r.${otherSide}`, 'r.created_at'])
              .where(`r.${fromSide}`, '=', from)
              .where(`r.${otherSide}`, '<>', to),
          )
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      await any
        .deleteFrom(table)
        .where((eb) => eb.or([eb(actor, '=', from), eb(target, '=', from)]))
        .execute();
    }
  }

  /** The other side of every block the sender is in (read before mergeRelations): their follow counts may change. */
  async blockPartners(userId: string, db: Kysely<Database>): Promise<string[]> {
    const rows = await db
      .selectFrom('user_blocks')
      .select('blocked_id as id')
      .where('blocker_id', '=', userId)
      .union(db.selectFrom('user_blocks').select('blocker_id as id').where('blocked_id', '=', userId))
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * A block ends every follow between the two (as blocking does): after mergeRelations, the
   * recipient's follows with anyone a block now stands between are removed, both ways.
   */
  async dropBlockedFollows(userId: string, db: Kysely<Database>): Promise<void> {
    const partners = db
      .selectFrom('user_blocks')
      .select('blocked_id as id')
      .where('blocker_id', '=', userId)
      .union(db.selectFrom('user_blocks').select('blocker_id as id').where('blocked_id', '=', userId));
    await db
      .deleteFrom('follows')
      .where((eb) =>
        eb.or([
          eb.and([eb('follower_id', '=', userId), eb('following_id', 'in', partners)]),
          eb.and([eb('following_id', '=', userId), eb('follower_id', 'in', partners)]),
        ]),
      )
      .execute();
  }

  /**
   * The sender's followers now follow the recipient (keeping when they first followed),
   * except the recipient itself, those who already did and those a block stands between
   * (run after mergeRelations). Returns how many were added.
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
          .where('f.follower_id', '<>', to)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('user_blocks as b')
                  .select('b.blocker_id')
                  .where((eb) =>
                    eb.or([
                      eb.and([eb('b.blocker_id', '=', to), eb('b.blocked_id', '=', eb.ref('f.follower_id'))]),
                      eb.and([eb('b.blocked_id', '=', to), eb('b.blocker_id', '=', eb.ref('f.follower_id'))]),
                    ]),
                  ),
              ),
            ),
          ),
      )
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0);
  }
}
