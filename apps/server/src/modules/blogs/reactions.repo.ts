import { type Kysely, type QueryCreator, sql } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';
import type { ToggleNotice } from '../../lib/tx';
import { deleteNoticeWhen, insertNoticeWhen, type ToggleNoticeRow } from '../notifications/notifications.repo';
import { POST_COUNTS, type PostCounts, postCounts } from './blogs.repo';

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
        .returning(POST_COUNTS),
    ),
  };
}
const STATEMENTS = { likes: statementsFor('likes'), saves: statementsFor('saves') };

/**
 * PostgreSQL: a whole toggle as one data-modifying WITH, atomic by itself (no BEGIN or COMMIT
 * round trip). The same steps as the transaction: take the reaction back if there is one, else
 * add it when `mayAdd` (a concurrent add leaves it there, counted once); move the counter only
 * when something changed. Every part sees the statement's starting snapshot, so each depends on
 * another only through the CTEs' RETURNING rows.
 */
function toggleParts(db: Kysely<Database>, table: ReactionTable, blogId: string, userId: string, createdAt: string, mayAdd: boolean) {
  const column = COUNTER[table];
  return db
    .with('removed', () => db.deleteFrom(table).where('blog_id', '=', blogId).where('user_id', '=', userId).returning('user_id'))
    .with('added', () =>
      db
        .insertInto(table)
        .columns(['blog_id', 'user_id', 'created_at'])
        .expression(
          db
            .selectNoFrom([sql`${blogId}`.as('blog_id'), sql`${userId}`.as('user_id'), sql`${createdAt}`.as('created_at')])
            .where(sql<boolean>`${mayAdd} and not exists (select 1 from removed)`),
        )
        .onConflict((oc) => oc.columns(['blog_id', 'user_id']).doNothing())
        .returning('user_id'),
    )
    .with('counted', () =>
      db
        .updateTable('blogs')
        .set({ [column]: sql`${sql.ref(column)} + (select count(*) from added) - (select count(*) from removed)` })
        .where('id', '=', blogId)
        .where(sql<boolean>`exists (select 1 from added union all select 1 from removed)`)
        .returning(POST_COUNTS),
    );
}

/** What the toggle did, and the post's counts after it (unchanged: as the statement found them). */
function toggleOutcome<DB>(parts: QueryCreator<DB>, blogId: string) {
  const count = (column: (typeof POST_COUNTS)[number]) =>
    sql<number>`coalesce((select ${sql.ref(column)} from counted), (select ${sql.ref(column)} from blogs where id = ${blogId}))`.as(column);
  return parts.selectNoFrom([
    sql<boolean>`exists (select 1 from removed)`.as('removed'),
    sql<boolean>`exists (select 1 from added)`.as('added'),
    ...POST_COUNTS.map(count),
  ]);
}

const plainToggle = (table: ReactionTable) =>
  prepared(
    (db, blogId: string, userId: string, createdAt: string, mayAdd: boolean) =>
      toggleOutcome(toggleParts(db, table, blogId, userId, createdAt, mayAdd), blogId),
    { statementName: `${table}_toggle` },
  );

const ONE_STATEMENT = {
  // A like's notice is created with the like (when `tell`: not one's own post, nobody silenced) and retracted with it.
  likeWithNotice: prepared(
    (db, blogId: string, userId: string, createdAt: string, mayAdd: boolean, tell: boolean, noticeId: string, recipientId: string) => {
      const notice: ToggleNoticeRow = { id: noticeId, recipientId, senderId: userId, type: 'like', blogId, createdAt };
      const parts = toggleParts(db, 'likes', blogId, userId, createdAt, mayAdd)
        .with('noticed', () => insertNoticeWhen(db, notice, sql<boolean>`${tell} and exists (select 1 from added)`))
        // Built on the plain schema, so its type does not name the CTEs before it (the SQL does).
        .with('retracted', () => deleteNoticeWhen(db, notice, sql<boolean>`exists (select 1 from removed)`) as never);
      return toggleOutcome(parts, blogId);
    },
    { statementName: 'like_toggle_with_notice' },
  ),
  // A save tells nobody; nor does a like of a post whose author is gone.
  plain: { likes: plainToggle('likes'), saves: plainToggle('saves') },
};

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

  /** Adds delta (possibly 0) to the blog's counter and returns its counts after, in one statement (undefined: no such blog). */
  async adjustCount(table: ReactionTable, blogDbId: string, delta: number, db: Kysely<Database>): Promise<PostCounts | undefined> {
    const { rows } = await STATEMENTS[table].adjust(db, blogDbId, delta);
    return rows[0] && postCounts(rows[0]);
  }

  /** The counter of `table` among a post's counts. */
  counter(table: ReactionTable, counts: PostCounts | undefined): number {
    return counts?.[COUNTER[table]] ?? 0;
  }

  /**
   * PostgreSQL: the whole toggle in one statement (see ONE_STATEMENT). Likes take their notice;
   * `mayAdd` false means nothing may be added (a block), so only a take-back happens.
   */
  async toggleInOneStatement(
    table: ReactionTable,
    blogDbId: string,
    userId: string,
    createdAt: string,
    mayAdd: boolean,
    notice: Pick<ToggleNotice, 'id' | 'recipientId' | 'tell'> | null,
    db: Kysely<Database>,
  ): Promise<{ removed: boolean; added: boolean; count: number; counts: PostCounts }> {
    const { rows } =
      table === 'likes' && notice
        ? await ONE_STATEMENT.likeWithNotice(db, blogDbId, userId, createdAt, mayAdd, notice.tell, notice.id, notice.recipientId)
        : await ONE_STATEMENT.plain[table](db, blogDbId, userId, createdAt, mayAdd);
    const row = rows[0]!;
    const counts = postCounts(row);
    return { removed: row.removed, added: row.added, count: this.counter(table, counts), counts };
  }
}
