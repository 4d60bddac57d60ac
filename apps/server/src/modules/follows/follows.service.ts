import { BLOCK_MESSAGES, USER_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { badRequest, forbidden, notFound, unauthorized } from '../../lib/errors';
import type { CountsWriteBack } from '../../lib/live-counts';
import { canFollow } from '../../lib/policies';
import { followersTag, profileTag } from '../../lib/public-tags';
import { oneStatement, type ToggleNotice, transact } from '../../lib/tx';
import type { BlockingRepository } from '../blocking/blocking.repo';
import type { UserCards } from '../users/user-cards';
import type { FollowsRepository } from './follows.repo';

export interface FollowEvents {
  /** The followed user's notice, planned before the toggle and written with it (notifications hook in here). */
  followNotice?(e: { followerId: string; followingId: string; followingRelations: number }): Promise<ToggleNotice>;
}

/** Follow toggle (SPEC.md 4): idempotent under concurrent requests; nobody follows themselves. */
export class FollowsService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      /** The two users' cards, kept between writes. */
      cards: UserCards;
      follows: FollowsRepository;
      blocking: BlockingRepository;
      events?: FollowEvents;
      /** The public cache's counts (absent without it): told the follower count a toggle left, so the profile is not read again. */
      liveCounts?: CountsWriteBack;
    },
  ) {}

  async toggle(followerId: string, targetId: string): Promise<{ message: string; following: boolean }> {
    if (!canFollow(followerId, targetId)) throw badRequest('You cannot follow yourself');
    const { db, cards, follows, blocking, events } = this.deps;
    const both = await cards.withActor(targetId, followerId);
    if (!both) throw notFound(USER_MESSAGES.notFound);
    // Gone since their token was checked (its state is kept for seconds): nothing to write for them.
    if (!both.actor) throw unauthorized(USER_MESSAGES.sessionExpired);
    const { card: target, actor } = both;
    const blocked = await blocking.blockedBetween(followerId, [{ id: targetId, relations: target.relations }]);
    if (!canFollow(followerId, targetId, blocked)) throw forbidden(BLOCK_MESSAGES.cannotFollow);
    // The follower's profile (its following count, tab and preview) and who follows the target
    // (its followers tab, its follower count, put in where its profile is served).
    const touched = {
      tags: [followersTag(target.username), profileTag(actor.username)],
      tables: ['follows', 'users'],
    };
    const notice = (await events?.followNotice?.({ followerId, followingId: targetId, followingRelations: target.relations })) ?? null;
    const epoch = this.deps.liveCounts?.epoch;
    // PostgreSQL makes the toggle one statement (follows.repo toggleInOneStatement), a round trip
    // instead of five; SQLite keeps its transaction.
    const change = isPostgres(db)
      ? await oneStatement(db, touched, (held) =>
          follows.toggleInOneStatement(followerId, targetId, nowIso(), notice ?? { id: newId(), tell: false }, held),
        )
      : await transact(db, async (tx) => {
          const removed = await follows.remove(followerId, targetId, tx.db);
          // If a concurrent request followed first, this one finds the row there: counted once.
          const added = !removed && (await follows.add(followerId, targetId, nowIso(), tx.db));
          if (!added && !removed) return { added, removed, followerCount: undefined };
          const done = { added, removed, followerCount: await follows.adjustCounts(followerId, targetId, removed ? -1 : 1, tx.db) };
          await tx.touch(touched.tags, touched.tables);
          await notice?.record(done, tx.db);
          return done;
        });
    if ((change.added || change.removed) && change.followerCount !== undefined && epoch !== undefined) {
      this.deps.liveCounts!.learn(followersTag(target.username), String(change.followerCount), epoch);
    }
    await notice?.settle(change);
    const following = !change.removed;
    return { message: following ? `You are now following ${target.name}` : `You unfollowed ${target.name}`, following };
  }
}
