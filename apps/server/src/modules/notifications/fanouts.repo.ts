import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { Database, NotificationFanoutsTable } from '../../db/schema';

export type FanoutKind = NotificationFanoutsTable['kind'];
export type Fanout = NotificationFanoutsTable;
/** Where a fan-out stopped: the last recipient told (followers also by their follow's time). */
export interface Recipient {
  id: string;
  time: string | null;
}

/**
 * The recipients of a post's notices, a batch at a time from a cursor, and the fan-outs still to
 * finish (notification_fanouts, migration 0034).
 */
export class FanoutsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The author's followers after `after`, in (follow time, id) order: one range of follows_following_idx. */
  async followersAfter(authorId: string, after: Recipient | null, limit: number, db: Kysely<Database>): Promise<Recipient[]> {
    let q = db.selectFrom('follows').select(['follower_id as id', 'created_at as time']).where('following_id', '=', authorId);
    if (after?.time) q = q.where(sql<boolean>`(created_at, follower_id) > (${after.time}, ${after.id})`);
    return q.orderBy('created_at').orderBy('follower_id').limit(limit).execute();
  }

  /**
   * The people who liked or saved the post (each once) after `afterId`, in id order, the author
   * included (the caller never tells anyone about their own action). Each side stops at `limit`
   * in its primary key, so a batch reads at most 2 × limit rows however many reacted.
   */
  async reactorsAfter(blogDbId: string, afterId: string | null, limit: number, db: Kysely<Database>): Promise<Recipient[]> {
    const side = (table: 'likes' | 'saves') =>
      db
        .selectFrom(table)
        .select('user_id as id')
        .where('blog_id', '=', blogDbId)
        .$if(afterId !== null, (q) => q.where('user_id', '>', afterId!))
        .orderBy('user_id')
        .limit(limit);
    const rows = await db
      .selectFrom(side('likes').as('l'))
      .select('l.id')
      .union(db.selectFrom(side('saves').as('s')).select('s.id'))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, time: null }));
  }

  /** Leaves (or starts over) the post's fan-out of this kind from `after`. */
  async save(fanout: Fanout, db: Kysely<Database>): Promise<void> {
    const { blog_id, kind, ...rest } = fanout;
    await db
      .insertInto('notification_fanouts')
      .values(fanout)
      .onConflict((oc) => oc.columns(['blog_id', 'kind']).doUpdateSet(rest))
      .execute();
  }

  /**
   * Takes the post's fan-out of this kind away, answering whether there was one. On PostgreSQL
   * it waits for a batch the job is writing from it (the job locks the row), so an edit that
   * starts its reactors' notices over never meets a batch of the old pass committing after it.
   */
  async remove(blogDbId: string, kind: FanoutKind, db: Kysely<Database>): Promise<boolean> {
    const result = await db.deleteFrom('notification_fanouts').where('blog_id', '=', blogDbId).where('kind', '=', kind).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The oldest fan-out not yet finished, if any. */
  oldest(): Promise<Fanout | undefined> {
    return this.db.selectFrom('notification_fanouts').selectAll().orderBy('created_at').limit(1).executeTakeFirst();
  }

  /** The fan-out as it is now, locked for this transaction on PostgreSQL (SQLite has one writer). */
  lock(blogDbId: string, kind: FanoutKind, trx: Kysely<Database>): Promise<Fanout | undefined> {
    const query = trx.selectFrom('notification_fanouts').selectAll().where('blog_id', '=', blogDbId).where('kind', '=', kind);
    return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  }
}
