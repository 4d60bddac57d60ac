import { BLOCK_MESSAGES, type BlockedUser, type RelationResponse } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { canBlock } from '../../lib/policies';
import { profileTag } from '../../lib/public-tags';
import { type Tx, transact } from '../../lib/tx';
import { page } from '../blogs/blogs.presenter';
import type { FollowsRepository } from '../follows/follows.repo';
import { presentUserCard } from '../users/users.presenter';
import type { UsersRepository } from '../users/users.repo';
import type { BlockingRepository, RelationKind } from './blocking.repo';

/** What a block or mute tells the notifications (wired in services.ts, as the follows' hooks are). */
export interface BlockingEvents {
  /** A block (by `actorId`) ended this follow: its "started following you" goes, as an unfollow's does. */
  onFollowEnded?(e: { followerId: string; followingId: string; actorId: string }, tx: Tx): Promise<void>;
  /** What the actor's notifications show changed (a block's or a mute's sender left or came back). */
  onRelationChanged?(actorId: string): Promise<void>;
}

interface Deps {
  db: Kysely<Database>;
  users: UsersRepository;
  follows: FollowsRepository;
  blocking: BlockingRepository;
  events?: BlockingEvents;
}

/**
 * Blocking and muting (issue 15). A block also ends any follow between the two, in the same
 * transaction, so no moment exists where a blocked user still follows (or is followed by) the
 * blocker. A mute tells nobody and changes nothing but what the muter is shown.
 */
export class BlockingService {
  constructor(private readonly deps: Deps) {}

  async set(kind: RelationKind, actorId: string, targetId: string, on: boolean): Promise<Omit<RelationResponse, 'success'>> {
    if (!canBlock(actorId, targetId)) throw badRequest(BLOCK_MESSAGES.notYourself);
    const { db, users, follows, blocking } = this.deps;
    const [target, actorName] = await Promise.all([users.findById(targetId), users.usernameOf(actorId)]);
    if (!target) throw notFound('User not found');
    if (kind === 'blocked' && on) {
      await transact(db, async (tx) => {
        await blocking.add('blocked', actorId, targetId, nowIso(), tx.db);
        let changed = false;
        const pairs: [string, string][] = [
          [actorId, targetId],
          [targetId, actorId],
        ];
        for (const [follower, following] of pairs) {
          if (await follows.remove(follower, following, tx.db)) {
            await follows.adjustCounts(follower, following, -1, tx.db);
            await this.deps.events?.onFollowEnded?.({ followerId: follower, followingId: following, actorId }, tx);
            changed = true;
          }
        }
        // Both profiles' counts and follow tabs.
        if (changed) await tx.touch([profileTag(target.username), ...(actorName ? [profileTag(actorName)] : [])], ['follows', 'users']);
      });
    } else if (on) await blocking.add(kind, actorId, targetId, nowIso());
    else await blocking.remove(kind, actorId, targetId);
    await this.deps.events?.onRelationChanged?.(actorId);
    const flags = await blocking.flagsOf(actorId, targetId);
    const message =
      kind === 'blocked' ? (on ? BLOCK_MESSAGES.blocked : BLOCK_MESSAGES.unblocked) : on ? BLOCK_MESSAGES.muted : BLOCK_MESSAGES.unmuted;
    return { message, ...flags };
  }

  async list(kind: RelationKind, actorId: string, pageNo: number, limit: number): Promise<{ users: BlockedUser[]; hasMore: boolean }> {
    const rows = await this.deps.blocking.list(kind, actorId, limit, (pageNo - 1) * limit);
    const { items, hasMore } = page(rows, limit);
    return { users: items.map((r) => ({ ...presentUserCard(r), since: String(r.created_at) })), hasMore };
  }
}
