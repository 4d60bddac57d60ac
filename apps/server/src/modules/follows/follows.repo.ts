import { type Expression, type Kysely, sql } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';
import type { ToggleNotice } from '../../lib/tx';
import { deleteNoticeWhen, insertNoticeWhen, type ToggleNoticeRow } from '../notifications/notifications.repo';

// The follow toggle's statements, compiled once (db/prepared.ts).
const removeFollow = prepared((db, followerId: string, followingId: string) =>
  db.deleteFrom('follows').where('follower_id', '=', followerId).where('following_id', '=', followingId),
);
const addFollow = prepared((db, followerId: string, followingId: string, createdAt: string) =>
  db
    .insertInto('follows')
    .values({ follower_id: followerId, following_id: followingId, created_at: createdAt })
    .onConflict((oc) => oc.columns(['follower_id', 'following_id']).doNothing()),
);
// Both counters in one statement: the follower's following_count and the followed user's
// follower_count. Both rows are found through the primary key in key order, so crossing follows
// (A→B, B→A) lock them in the same order and cannot deadlock.
const adjustBothQuery = (db: Kysely<Database>, followerId: string, followingId: string, delta: Expression<number>) =>
  db
    .updateTable('users')
    .set((eb) => ({
      following_count: eb('following_count', '+', eb.case().when('id', '=', followerId).then(delta).else(0).end()),
      follower_count: eb('follower_count', '+', eb.case().when('id', '=', followingId).then(delta).else(0).end()),
    }))
    .where('id', 'in', [followerId, followingId]);
const adjustBoth = prepared((db, followerId: string, followingId: string, delta: number) =>
  adjustBothQuery(db, followerId, followingId, sql<number>`${delta}`).returning(['id', 'follower_count']),
);

/**
 * PostgreSQL: the whole toggle as one data-modifying WITH, atomic by itself (as
 * reactions.repo's): unfollow if following, else follow (a concurrent follow leaves it there,
 * counted once); both counters move only when something changed; the followed user's notice is
 * created (when `tell`) or retracted with the follow.
 */
const toggleInOneStatement = prepared(
  (db, followerId: string, followingId: string, createdAt: string, tell: boolean, noticeId: string) => {
    const notice: ToggleNoticeRow = {
      id: noticeId,
      recipientId: followingId,
      senderId: followerId,
      type: 'follow',
      blogId: null,
      createdAt,
    };
    const delta = sql<number>`((select count(*) from added) - (select count(*) from removed))::int`;
    return db
      .with('removed', () =>
        db.deleteFrom('follows').where('follower_id', '=', followerId).where('following_id', '=', followingId).returning('follower_id'),
      )
      .with('added', () =>
        db
          .insertInto('follows')
          .columns(['follower_id', 'following_id', 'created_at'])
          .expression(
            db
              .selectNoFrom([
                sql`${followerId}`.as('follower_id'),
                sql`${followingId}`.as('following_id'),
                sql`${createdAt}`.as('created_at'),
              ])
              .where(sql<boolean>`not exists (select 1 from removed)`),
          )
          .onConflict((oc) => oc.columns(['follower_id', 'following_id']).doNothing())
          .returning('follower_id'),
      )
      .with(
        'counted',
        () =>
          adjustBothQuery(db, followerId, followingId, delta)
            .where(sql<boolean>`exists (select 1 from added union all select 1 from removed)`)
            .returning(['id', 'follower_count']) as never,
      )
      .with('noticed', () => insertNoticeWhen(db, notice, sql<boolean>`${tell} and exists (select 1 from added)`) as never)
      .with('retracted', () => deleteNoticeWhen(db, { ...notice, blogId: null }, sql<boolean>`exists (select 1 from removed)`) as never)
      .selectNoFrom([
        sql<boolean>`exists (select 1 from removed)`.as('removed'),
        sql<boolean>`exists (select 1 from added)`.as('added'),
        sql<number | null>`(select follower_count from counted where id = ${followingId})`.as('follower_count'),
      ]);
  },
  { statementName: 'follow_toggle_with_notice' },
);

/** Follow rows and the two counters they drive, changed in the caller's transaction. */
export class FollowsRepository {
  async remove(followerId: string, followingId: string, db: Kysely<Database>): Promise<boolean> {
    return Number((await removeFollow(db, followerId, followingId)).numAffectedRows ?? 0) > 0;
  }

  async add(followerId: string, followingId: string, createdAt: string, db: Kysely<Database>): Promise<boolean> {
    return Number((await addFollow(db, followerId, followingId, createdAt)).numAffectedRows ?? 0) > 0;
  }

  /** Both users' counters, in one statement; the followed user's follower count after it. */
  async adjustCounts(followerId: string, followingId: string, delta: number, db: Kysely<Database>): Promise<number | undefined> {
    const { rows } = await adjustBoth(db, followerId, followingId, delta);
    const followed = rows.find((r) => r.id === followingId);
    return followed && Number(followed.follower_count);
  }

  /** PostgreSQL: the whole toggle in one statement (toggleInOneStatement above). */
  async toggleInOneStatement(
    followerId: string,
    followingId: string,
    createdAt: string,
    notice: Pick<ToggleNotice, 'id' | 'tell'>,
    db: Kysely<Database>,
  ): Promise<{ removed: boolean; added: boolean; followerCount: number | undefined }> {
    const { rows } = await toggleInOneStatement(db, followerId, followingId, createdAt, notice.tell, notice.id);
    const { removed, added, follower_count } = rows[0]!;
    return { removed, added, followerCount: follower_count == null ? undefined : Number(follower_count) };
  }
}
