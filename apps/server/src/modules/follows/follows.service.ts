import { BLOCK_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { canFollow } from '../../lib/policies';
import { profileTag } from '../../lib/public-tags';
import { type Declaration, oneStatement, type ToggleNotice, type Tx, transact } from '../../lib/tx';
import type { BlockingRepository } from '../blocking/blocking.repo';
import type { UsersRepository } from '../users/users.repo';
import type { FollowsRepository } from './follows.repo';

export interface FollowEvents {
  onFollowChanged?(e: { followerId: string; followingId: string; followingRelations: number; following: boolean }, tx: Tx): Promise<void>;
  /** The same hook for the follow made as one statement (PostgreSQL): the notice that statement writes. */
  followNotice?(e: { followerId: string; followingId: string; followingRelations: number }): Promise<ToggleNotice>;
}

/** Follow toggle (SPEC.md 4): idempotent under concurrent requests; nobody follows themselves. */
export class FollowsService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      users: UsersRepository;
      follows: FollowsRepository;
      blocking: BlockingRepository;
      events?: FollowEvents;
    },
  ) {}

  async toggle(followerId: string, targetId: string): Promise<{ message: string; following: boolean }> {
    if (!canFollow(followerId, targetId)) throw badRequest('You cannot follow yourself');
    const { db, users, follows, blocking, events } = this.deps;
    const target = await users.cardOfWithActor(targetId, followerId);
    if (!target) throw notFound('User not found');
    const blocked = await blocking.blockedBetween(followerId, [{ id: targetId, relations: target.relations }]);
    if (!canFollow(followerId, targetId, blocked)) throw forbidden(BLOCK_MESSAGES.cannotFollow);
    // Both profiles: counts, the followers and following tabs, the following preview.
    const touched = {
      tags: [profileTag(target.username), ...(target.actor_username ? [profileTag(target.actor_username)] : [])],
      tables: ['follows', 'users'],
    };
    const said = (following: boolean) => ({
      message: following ? `You are now following ${target.name}` : `You unfollowed ${target.name}`,
      following,
    });
    if (isPostgres(db)) return said(await this.toggleInOneStatement(followerId, targetId, target.relations, touched));
    return transact(db, async (tx) => {
      const trx = tx.db;
      let following: boolean;
      let delta = 0;
      if (await follows.remove(followerId, targetId, trx)) {
        following = false;
        delta = -1;
      } else {
        following = true;
        delta = (await follows.add(followerId, targetId, nowIso(), trx)) ? 1 : 0;
      }
      if (delta) {
        await follows.adjustCounts(followerId, targetId, delta, trx);
        await tx.touch(touched.tags, touched.tables);
        await events?.onFollowChanged?.({ followerId, followingId: targetId, followingRelations: target.relations, following }, tx);
      }
      return said(following);
    });
  }

  /**
   * PostgreSQL: the same toggle as one statement (follows.repo toggleInOneStatement), a round trip
   * instead of five; the followed user's notice is part of it. Whether the follower now follows.
   */
  private async toggleInOneStatement(
    followerId: string,
    targetId: string,
    targetRelations: number,
    touched: Declaration,
  ): Promise<boolean> {
    const { db, follows, events } = this.deps;
    const notice = await events?.followNotice?.({ followerId, followingId: targetId, followingRelations: targetRelations });
    const change = await oneStatement(db, touched, (held) =>
      follows.toggleInOneStatement(followerId, targetId, nowIso(), notice ?? { id: newId(), tell: false }, held),
    );
    await notice?.settle(change);
    return !change.removed;
  }
}
