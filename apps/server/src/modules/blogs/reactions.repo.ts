import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export type ReactionTable = 'likes' | 'saves';
const COUNTER = { likes: 'like_count', saves: 'save_count' } as const;

/** Likes and saves: a row per (blog, user) and a counter on the blog kept in the same transaction. */
export class ReactionsRepository {
  /** Removes the reaction; true when there was one. */
  async remove(table: ReactionTable, blogDbId: string, userId: string, db: Kysely<Database>): Promise<boolean> {
    const r = await db.deleteFrom(table).where('blog_id', '=', blogDbId).where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Adds the reaction unless a concurrent request already did; true when this call added it. */
  async add(table: ReactionTable, blogDbId: string, userId: string, createdAt: string, db: Kysely<Database>): Promise<boolean> {
    const r = await db
      .insertInto(table)
      .values({ blog_id: blogDbId, user_id: userId, created_at: createdAt })
      .onConflict((oc) => oc.columns(['blog_id', 'user_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async adjustCount(table: ReactionTable, blogDbId: string, delta: number, db: Kysely<Database>): Promise<number> {
    const column = COUNTER[table];
    if (delta !== 0)
      await db
        .updateTable('blogs')
        .set((eb) => ({ [column]: eb(column, '+', delta) }))
        .where('id', '=', blogDbId)
        .execute();
    const row = await db.selectFrom('blogs').select(column).where('id', '=', blogDbId).executeTakeFirstOrThrow();
    return Number((row as Record<string, number>)[column]);
  }
}
