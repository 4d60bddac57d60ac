import type { PublicDataChanges } from '../../lib/public-data';
import { PublicMemo } from '../../lib/public-memo';
import { userCardTag } from '../../lib/public-tags';
import type { UsersRepository } from './users.repo';

/** What a write checks and shows of a user acting or acted on: a like's liker, a follow's two users. */
export interface UserCard {
  name: string;
  username: string;
  profile_pic: string | null;
  /** users.relations: 0 when no block or mute involves the user (blocking.repo blockedBetween). */
  relations: number;
}

/** Users whose cards are kept: a few fields each. */
export const USER_CARDS_MEMO_SIZE = 10_000;

/**
 * Users' cards kept in memory between writes (a like, a comment, a follow read them before they
 * write: on PostgreSQL a round trip each; docs/decisions.md, "A post's reference and the actor's
 * card kept between writes"). Tagged `userCardTag`, which no like, comment or follow touches:
 * every change of a card today is a write no path declares (a profile edit, a block or mute, a
 * suspension, a deletion), which drops everything. Used only while every instance's changes
 * reach this one (PublicDataChanges.reliable); without a change feed nothing is kept.
 */
export class UserCards {
  private readonly memo?: PublicMemo<UserCard>;

  constructor(
    private readonly users: UsersRepository,
    publicData?: PublicDataChanges,
    ttlMs?: number,
  ) {
    if (publicData) this.memo = new PublicMemo<UserCard>(publicData, { ttlMs, maxEntries: USER_CARDS_MEMO_SIZE, whileReliable: true });
  }

  /**
   * The card of `userId` and of `actorId`, who acts on them (a follow's follower), in one read
   * when either is not kept; undefined for an unknown user, `actor` undefined when that user is gone.
   */
  async withActor(userId: string, actorId: string): Promise<{ card: UserCard; actor: UserCard | undefined } | undefined> {
    const [card, actor] = [this.get(userId), this.get(actorId)];
    if (card && actor) return { card, actor };
    const generation = this.generation;
    const row = await this.users.cardOfWithActor(userId, actorId);
    if (!row) return undefined;
    const loaded = { name: row.name, username: row.username, profile_pic: row.profile_pic, relations: row.relations };
    this.keep(userId, generation, loaded);
    const loadedActor =
      row.actor_username === null
        ? undefined
        : { name: row.actor_name!, username: row.actor_username, profile_pic: row.actor_profile_pic, relations: row.actor_relations! };
    // A user who is gone is not kept: their row may come back (a restore) under another name.
    if (loadedActor) this.keep(actorId, generation, loadedActor);
    return { card: loaded, actor: loadedActor };
  }

  /** The kept card of a user, or undefined (not kept, or changes may not reach this instance now). */
  get(userId: string): UserCard | undefined {
    return this.memo?.get(userId);
  }

  /** Read before loading a card and passed to keep(): a card loaded before a change that lands after it is refused. */
  get generation(): number {
    return this.memo?.generation ?? 0;
  }

  keep(userId: string, generation: number, card: UserCard): void {
    this.memo?.set(userId, generation, card, [userCardTag(userId)]);
  }
}
