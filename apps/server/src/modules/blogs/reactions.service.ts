import { BLOCK_MESSAGES, BLOG_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { forbidden, notFound } from '../../lib/errors';
import { canInteract, canReadBlog, canWithdrawReaction } from '../../lib/policies';
import { countTags, profileTag } from '../../lib/public-tags';
import { type Declaration, oneStatement, type ToggleNotice, type Tx, transact } from '../../lib/tx';
import type { BlockingRepository } from '../blocking/blocking.repo';
import type { BlogRefWithActor, BlogsRepository } from './blogs.repo';
import type { ReactionsRepository, ReactionTable } from './reactions.repo';

export interface ReactionEvents {
  /** Called after a like is added or removed (notifications hook in here). */
  onLikeChanged?(
    e: { blogDbId: string; blogCreatorId: string; creatorRelations: number | null; userId: string; liked: boolean },
    tx: Tx,
  ): Promise<void>;
  /** The same hook for the like made as one statement (PostgreSQL): the notice that statement writes. */
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
      blogs: BlogsRepository;
      reactions: ReactionsRepository;
      blocking: BlockingRepository;
      events?: ReactionEvents;
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
    const { db, blogs, reactions, events } = this.deps;
    const blog = await blogs.findRefWithActor(blogId, userId);
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
    if (isPostgres(db)) return this.toggleInOneStatement(table, userId, blog, canInteract(userId, blog, blocked), touched);
    return transact(db, async (tx) => {
      const trx = tx.db;
      let active: boolean;
      let delta = 0;
      if (await reactions.remove(table, blog.id, userId, trx)) {
        // Taking one's own like or save back is allowed across a block made since.
        active = false;
        delta = -1;
      } else {
        // Nothing to take back: this adds one, which a block either way forbids (nothing changed yet).
        if (!canInteract(userId, blog, blocked)) throw forbidden(BLOCK_MESSAGES.cannotReact);
        // If a concurrent request inserted first, this one finds the row there: still liked, counted once.
        const added = await reactions.add(table, blog.id, userId, nowIso(), trx);
        active = true;
        delta = added ? 1 : 0;
      }
      const count = await reactions.adjustCount(table, blog.id, delta, trx);
      await tx.touch(touched.tags, touched.tables);
      if (table === 'likes' && delta && events?.onLikeChanged) {
        const e = { blogDbId: blog.id, blogCreatorId: blog.creator_id, creatorRelations: blog.creator_relations, userId, liked: active };
        await events.onLikeChanged(e, tx);
      }
      return { active, count };
    });
  }

  /**
   * PostgreSQL: the same toggle as one statement (reactions.repo ONE_STATEMENT), a round trip
   * instead of five; a like's notice is part of it. Measured in docs/performance.md.
   */
  private async toggleInOneStatement(
    table: ReactionTable,
    userId: string,
    blog: BlogRefWithActor,
    mayAdd: boolean,
    touched: Declaration,
  ): Promise<ReactionResult> {
    const { db, reactions, events } = this.deps;
    const notice =
      table === 'likes' && blog.creator_id && events?.likeNotice
        ? await events.likeNotice({ blogDbId: blog.id, blogCreatorId: blog.creator_id, creatorRelations: blog.creator_relations, userId })
        : null;
    const change = await oneStatement(db, touched, (held) =>
      reactions.toggleInOneStatement(table, blog.id, userId, nowIso(), mayAdd, notice, held),
    );
    // Nothing to take back and nothing may be added: the statement changed nothing.
    if (!change.removed && !change.added && !mayAdd) throw forbidden(BLOCK_MESSAGES.cannotReact);
    await notice?.settle(change);
    return { active: !change.removed, count: change.count };
  }
}
