import type { Kysely } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';

export type ReactionTable = 'likes' | 'saves';
const COUNTER = { likes: 'like_count', saves: 'save_count' } as const;

/** Each toggle runs these: compiled once per table (db/prepared.ts). */
function statementsFor(table: ReactionTable) {
  const column = COUNTER[table];
  return {
    remove: prepared((db, blogId: string, userId: string) =>
      db.deleteFrom(table).where('blog_id', '=', blogId).where('user_id', '=', userId),
    ),
    add: prepared((db, blogId: string, userId: string, createdAt: string) =>
      db
        .insertInto(table)
        .values({ blog_id: blogId, user_id: userId, created_at: createdAt })
        .onConflict((oc) => oc.columns(['blog_id', 'user_id']).doNothing()),
    ),
    adjust: prepared((db, blogId: string, delta: number) =>
      db
        .updateTable('blogs')
        .set((eb) => ({ [column]: eb(column, '+', delta) }))
        .where('id', '=', blogId)
        .returning(column),
    ),
  };
}
const STATEMENTS = { likes: statementsFor('likes'), saves: statementsFor('saves') };

/** Likes and saves: a row per (blog, user) and a counter on the blog kept in the same transaction. */
export class ReactionsRepository {
  /** Removes the reaction; true when there was one. */
  async remove(table: ReactionTable, blogDbId: string, userId: string, db: Kysely<Database>): Promise<boolean> {
    const r = await STATEMENTS[table].remove(db, blogDbId, userId);
    return Number(r.numAffectedRows ?? 0) > 0;
  }

  /** Adds the reaction unless a concurrent request already did; true when this call added it. */
  async add(table: ReactionTable, blogDbId: string, userId: string, createdAt: string, db: Kysely<Database>): Promise<boolean> {
    const r = await STATEMENTS[table].add(db, blogDbId, userId, createdAt);
    return Number(r.numAffectedRows ?? 0) > 0;
  }

  /** Adds delta (possibly 0) to the blog's counter and returns its new value, in one statement. */
  async adjustCount(table: ReactionTable, blogDbId: string, delta: number, db: Kysely<Database>): Promise<number> {
    const { rows } = await STATEMENTS[table].adjust(db, blogDbId, delta);
    return Number((rows[0] as Record<string, number> | undefined)?.[COUNTER[table]] ?? 0);
  }
}
