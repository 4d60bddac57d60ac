import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** Follow rows and the two counters they drive, changed in the caller's transaction. */
export class FollowsRepository {
  async remove(followerId: string, followingId: string, db: Kysely<Database>): Promise<boolean> {
    const r = await db
      .deleteFrom('follows')
      .where('follower_id', '=', followerId)
      .where('following_id', '=', followingId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async add(followerId: string, followingId: string, createdAt: string, db: Kysely<Database>): Promise<boolean> {
    const r = await db
      .insertInto('follows')
      .values({ follower_id: followerId, following_id: followingId, created_at: createdAt })
      .onConflict((oc) => oc.columns(['follower_id', 'following_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Both users' counters; rows are updated in id order so crossing follows (A→B, B→A) cannot deadlock. */
  async adjustCounts(followerId: string, followingId: string, delta: number, db: Kysely<Database>) {
    const updates = [
      { id: followerId, column: 'following_count' as const },
      { id: followingId, column: 'follower_count' as const },
    ].sort((x, y) => (x.id < y.id ? -1 : 1));
    for (const { id, column } of updates) {
      await db
        .updateTable('users')
        .set((eb) => ({ [column]: eb(column, '+', delta) }))
        .where('id', '=', id)
        .execute();
    }
  }
}
