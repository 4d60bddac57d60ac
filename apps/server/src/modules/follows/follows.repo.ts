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
const addToFollowing = prepared((db, id: string, delta: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ following_count: eb('following_count', '+', delta) }))
    .where('id', '=', id),
);
const addToFollowers = prepared((db, id: string, delta: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ follower_count: eb('follower_count', '+', delta) }))
    .where('id', '=', id),
);

/** Follow rows and the two counters they drive, changed in the caller's transaction. */
export class FollowsRepository {
  async remove(followerId: string, followingId: string, db: Kysely<Database>): Promise<boolean> {
    return Number((await removeFollow(db, followerId, followingId)).numAffectedRows ?? 0) > 0;
  }

  async add(followerId: string, followingId: string, createdAt: string, db: Kysely<Database>): Promise<boolean> {
    return Number((await addFollow(db, followerId, followingId, createdAt)).numAffectedRows ?? 0) > 0;
  }

  /** Both users' counters; rows are updated in id order so crossing follows (A→B, B→A) cannot deadlock. */
  async adjustCounts(followerId: string, followingId: string, delta: number, db: Kysely<Database>) {
    const updates = [
      { id: followerId, add: addToFollowing },
      { id: followingId, add: addToFollowers },
    ].sort((x, y) => (x.id < y.id ? -1 : 1));
    for (const { id, add } of updates) await add(db, id, delta);
  }
}
