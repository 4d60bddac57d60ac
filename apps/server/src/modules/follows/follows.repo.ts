import type { Kysely } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';

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
const adjustBoth = prepared((db, followerId: string, followingId: string, delta: number) =>
  db
    .updateTable('users')
    .set((eb) => ({
      following_count: eb('following_count', '+', eb.case().when('id', '=', followerId).then(delta).else(0).end()),
      follower_count: eb('follower_count', '+', eb.case().when('id', '=', followingId).then(delta).else(0).end()),
    }))
    .where('id', 'in', [followerId, followingId]),
);

/** Follow rows and the two counters they drive, changed in the caller's transaction. */
export class FollowsRepository {
  async remove(followerId: string, followingId: string, db: Kysely<Database>): Promise<boolean> {
    return Number((await removeFollow(db, followerId, followingId)).numAffectedRows ?? 0) > 0;
  }

  async add(followerId: string, followingId: string, createdAt: string, db: Kysely<Database>): Promise<boolean> {
    return Number((await addFollow(db, followerId, followingId, createdAt)).numAffectedRows ?? 0) > 0;
  }

  /** Both users' counters, in one statement. */
  async adjustCounts(followerId: string, followingId: string, delta: number, db: Kysely<Database>) {
    await adjustBoth(db, followerId, followingId, delta);
  }
}
