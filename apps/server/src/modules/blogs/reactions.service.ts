import { BLOCK_MESSAGES, BLOG_MESSAGES, USER_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { forbidden, notFound, unauthorized } from '../../lib/errors';
import type { CountsWriteBack } from '../../lib/live-counts';
import { canInteract, canReadBlog, canWithdrawReaction } from '../../lib/policies';
import { countsTag, countTags, profileTag } from '../../lib/public-tags';
import { oneStatement, type ToggleNotice, transact } from '../../lib/tx';
import type { BlockingRepository } from '../blocking/blocking.repo';
import { rowCountsText } from './blogs.presenter';
import type { PostRefs } from './post-refs';
import type { ReactionsRepository, ReactionTable } from './reactions.repo';

export interface ReactionEvents {
  /** A like's notice, planned before the toggle and written with it (notifications hook in here). */
  likeNotice?(e: { blogDbId: string; blogCreatorId: string; creatorRelations: number | null; userId: string }): Promise<ToggleNotice>;
}

export interface ReactionResult {
  active: boolean;
  count: number;
}

/** Like and save toggles (SPEC.md 4): each request flips the viewer's state, safely under concurrency. */
export class ReactionsService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      /** The post's reference and the liker's card, kept between writes. */
      refs: PostRefs;
      reactions: ReactionsRepository;
      blocking: BlockingRepository;
      events?: ReactionEvents;
      /** The public cache's counts (absent without it): told what a toggle left, so its page is not read again. */
      liveCounts?: CountsWriteBack;
    },
  ) {}

  async toggleLike(userId: string, blogId: string): Promise<{ message: string; liked: boolean; likeCount: number }> {
    const r = await this.toggle('likes', userId, blogId);
    return { message: r.active ? 'Blog liked' : 'Blog unliked', liked: r.active, likeCount: r.count };
  }

  async toggleSave(userId: string, blogId: string): Promise<{ message: string; saved: boolean; saveCount: number }> {
    const r = await this.toggle('saves', userId, blogId);
    return { message: r.active ? 'Blog saved' : 'Blog removed from saved', saved: r.active, saveCount: r.count };
  }

  private async toggle(table: ReactionTable, userId: string, blogId: string): Promise<ReactionResult> {
    const { db, refs, reactions, events } = this.deps;
    const blog = await refs.withActor(blogId, userId);
    // Gone since their token was checked (its state is kept for seconds): nothing to write for them.
    if (blog && !blog.actor_username) throw unauthorized(USER_MESSAGES.sessionExpired);
    if (!blog || !canReadBlog(userId, blog)) throw notFound(BLOG_MESSAGES.notFound);
    if (!canWithdrawReaction(userId, blog)) throw forbidden(BLOCK_MESSAGES.cannotReact);
    // Read before the transaction (which holds SQLite's one connection); asked only when adding.
    const blocked =
      blog.creator_id !== null &&
      (await this.deps.blocking.blockedBetween(userId, [{ id: blog.creator_id, relations: blog.creator_relations }]));
    // The post's counts (its page and cards) and the reader's liked or saved tab and count.
    const touched = {
      tags: [...countTags(blog.blog_id), ...(blog.actor_username ? [profileTag(blog.actor_username)] : [])],
      tables: [table, 'blogs'],
    };
    const notice =
      table === 'likes' && blog.creator_id && events?.likeNotice
        ? await events.likeNotice({ blogDbId: blog.id, blogCreatorId: blog.creator_id, creatorRelations: blog.creator_relations, userId })
        : null;
    const mayAdd = canInteract(userId, blog, blocked);
    const epoch = this.deps.liveCounts?.epoch;
    // PostgreSQL makes the toggle one statement (reactions.repo ONE_STATEMENT): a round trip instead
    // of five (docs/performance.md). SQLite has no DML in WITH, and its statements cost no round trip.
    const change = isPostgres(db)
      ? await oneStatement(db, touched, (held) => reactions.toggleInOneStatement(table, blog.id, userId, nowIso(), mayAdd, notice, held))
      : await transact(db, async (tx) => {
          // Taking one's own like or save back is allowed across a block made since; adding is not.
          const removed = await reactions.remove(table, blog.id, userId, tx.db);
          if (!removed && !mayAdd) return { added: false, removed, count: 0, counts: undefined };
          // If a concurrent request inserted first, this one finds the row there: still liked, counted once.
          const added = !removed && (await reactions.add(table, blog.id, userId, nowIso(), tx.db));
          const delta = removed ? -1 : added ? 1 : 0;
          const counts = await reactions.adjustCount(table, blog.id, delta, tx.db);
          const done = { added, removed, count: reactions.counter(table, counts), counts };
          await tx.touch(touched.tags, touched.tables);
          await notice?.record(done, tx.db);
          return done;
        });
    // Nothing to take back and nothing may be added: the toggle changed nothing.
    if (!change.removed && !change.added && !mayAdd) throw forbidden(BLOCK_MESSAGES.cannotReact);
    if ((change.added || change.removed) && change.counts && epoch !== undefined) {
      this.deps.liveCounts!.learn(countsTag(blog.blog_id), rowCountsText(change.counts), epoch);
    }
    await notice?.settle(change);
    return { active: !change.removed, count: change.count };
  }
}
