import type { Kysely } from 'kysely';
import { idList, oneOf, prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';

// The one-other-user form of blockedBetween: every like, comment and follow asks it, so it is
// compiled once (db/prepared.ts).
const blockedPair = prepared(
  (db, a: string, b: string) =>
    db
      .selectFrom('user_blocks')
      .select('blocker_id')
      .where((eb) =>
        eb.or([eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]), eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)])]),
      )
      .limit(1),
  { statementName: 'blocked_pair' },
);
/**
 * Of the recipients (an id list: idList), those who must not hear from the sender: compiled once
 * whatever their number, one statement inside the write's transaction.
 */
const silencedAmong = prepared(
  (db, sender: string, recipients: unknown) =>
    db
      .selectFrom('user_blocks')
      .select('blocker_id as id')
      .where('blocked_id', '=', sender)
      .where(oneOf(db, 'blocker_id', recipients))
      .unionAll(
        db
          .selectFrom('user_blocks')
          .select('blocked_id as id')
          .where('blocker_id', '=', sender)
          .where(oneOf(db, 'blocked_id', recipients)),
      )
      .unionAll(
        db
          .selectFrom('user_mutes')
          .select('muter_id as id')
          .where('muted_id', '=', sender)
          .where(oneOf(db, 'muter_id', recipients)),
      ),
  { statementName: 'silenced_among' },
);

export type RelationKind = 'blocked' | 'muted';

/**
 * A person as far as blocks and mutes go: `relations` is their users.relations, read with their
 * row, or null when not read. 0 means no block or mute involves them, so no check is needed.
 */
export interface RelatedUser {
  id: string;
  relations: number | null;
}

/** The two tables differ only in their column names. */
const TABLES = {
  blocked: { table: 'user_blocks', actor: 'blocker_id', target: 'blocked_id' },
  muted: { table: 'user_mutes', actor: 'muter_id', target: 'muted_id' },
} as const;

/** Block and mute rows (issue 15); every check is one lookup on a primary key or the target index. */
export class BlockingRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(kind: RelationKind, actorId: string, targetId: string, createdAt: string, db: Kysely<Database> = this.db): Promise<void> {
    const { table, actor, target } = TABLES[kind];
    // The flag first: a flag without its row costs one needless check, a row without its flag would be skipped.
    await db.updateTable('users').set({ relations: 1 }).where('id', 'in', [actorId, targetId]).where('relations', '=', 0).execute();
    await (db as Kysely<any>)
      .insertInto(table)
      .values({ [actor]: actorId, [target]: targetId, created_at: createdAt })
      .onConflict((oc) => oc.columns([actor, target]).doNothing())
      .execute();
  }

  async remove(kind: RelationKind, actorId: string, targetId: string): Promise<void> {
    const { table, actor, target } = TABLES[kind];
    await (this.db as Kysely<any>).deleteFrom(table).where(actor, '=', actorId).where(target, '=', targetId).execute();
  }

  /** Whether a block stands between `userId` and any of `others`, whoever made it. */
  async blockedBetween(userId: string, others: readonly RelatedUser[]): Promise<boolean> {
    const ids = others.filter((o) => o.id !== userId && o.relations !== 0).map((o) => o.id);
    if (!ids.length) return false;
    if (ids.length === 1) return (await blockedPair(this.db, userId, ids[0]!)).rows.length > 0;
    const row = await this.db
      .selectFrom('user_blocks')
      .select('blocker_id')
      .where((eb) =>
        eb.or([
          eb.and([eb('blocker_id', '=', userId), eb('blocked_id', 'in', ids)]),
          eb.and([eb('blocked_id', '=', userId), eb('blocker_id', 'in', ids)]),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The viewer's own flags on a profile: did they block or mute this user. */
  async flagsOf(viewerId: string, targetId: string): Promise<{ isBlocked: boolean; isMuted: boolean }> {
    const [b, m] = await Promise.all([
      this.db
        .selectFrom('user_blocks')
        .select('blocker_id')
        .where('blocker_id', '=', viewerId)
        .where('blocked_id', '=', targetId)
        .executeTakeFirst(),
      this.db
        .selectFrom('user_mutes')
        .select('muter_id')
        .where('muter_id', '=', viewerId)
        .where('muted_id', '=', targetId)
        .executeTakeFirst(),
    ]);
    return { isBlocked: b !== undefined, isMuted: m !== undefined };
  }

  /** Whether the user muted anyone: the home feed's cached page serves everyone else. */
  async mutesAnyone(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('user_mutes').select('muter_id').where('muter_id', '=', userId).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Of `recipientIds`, those who must not hear from `senderId`: a block either way, or the
   * recipient muted the sender. Callers pass at most a fan-out batch.
   */
  async silencedRecipients(senderId: string, recipientIds: string[], db: Kysely<Database> = this.db): Promise<Set<string>> {
    if (!recipientIds.length) return new Set();
    const { rows } = await silencedAmong(db, senderId, idList(db, recipientIds));
    return new Set(rows.map((r) => r.id));
  }

  /** A page of the users the actor blocked or muted, newest first; one extra row for hasMore. */
  list(kind: RelationKind, actorId: string, limit: number, offset: number) {
    const { table, actor, target } = TABLES[kind];
    return (this.db as Kysely<any>)
      .selectFrom(`${table} as r`)
      .innerJoin('users as u', 'u.id', `r.${target}`)
      .select(['u.id', 'u.name', 'u.username', 'u.profile_pic', 'r.created_at'])
      .where(`r.${actor}`, '=', actorId)
      .orderBy('r.created_at', 'desc')
      .orderBy('u.id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute() as Promise<{ id: string; name: string; username: string; profile_pic: string | null; created_at: string }[]>;
  }
}
