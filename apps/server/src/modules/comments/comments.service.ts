import { BLOCK_MESSAGES, BLOG_MESSAGES, COMMENT_MESSAGES, MAX_REPLIES_PER_PAGE, USER_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { badRequest, forbidden, notFound, unauthorized } from '../../lib/errors';
import { decodeTimeKeyCursor, encodeCursor } from '../../lib/keyset-cursor';
import type { CountsWriteBack } from '../../lib/live-counts';
import {
  canDeleteComment,
  canEditComment,
  canInteract,
  canReadBlog,
  canReadComment,
  canReadThread,
  canReplyTo,
  canWithdrawReaction,
  type ViewerId,
} from '../../lib/policies';
import { commentCountTags, commentsTag, countsTag } from '../../lib/public-tags';
import { NO_NOTICES, oneStatement, type PlannedNotices, type Tx, transact } from '../../lib/tx';
import type { BlockingRepository, RelatedUser } from '../blocking/blocking.repo';
import { rowCountsText } from '../blogs/blogs.presenter';
import type { BlogRef, BlogsRepository } from '../blogs/blogs.repo';
import type { PostRefs } from '../blogs/post-refs';
import type { CountersRepository } from '../users/counters.repo';
import { buildThreads, type CommentView, presentComment } from './comments.presenter';
import type { CommentsRepository, ReplyPosition } from './comments.repo';

export interface CommentCreated {
  commentId: string;
  blog: BlogRef;
  authorId: string;
  parentAuthorId: string | null;
}

export interface CommentEvents {
  /** A new comment's notices, planned before it and written with it (notifications hook in here). */
  commentNotices?(e: CommentCreated): Promise<PlannedNotices>;
  onCommentLikeChanged?(
    e: { commentId: string; blog: Pick<BlogRef, 'id'>; commentAuthorId: string; userId: string; liked: boolean },
    tx: Tx,
  ): Promise<void>;
  /** A comment is about to be deleted, with the replies below it and everything about them. */
  onCommentDeleting?(e: { blogDbId: string; commentId: string }, tx: Tx): Promise<void>;
}

interface Deps {
  db: Kysely<Database>;
  blogs: BlogsRepository;
  /** The post's reference and the commenter's card, kept between writes. */
  refs: PostRefs;
  comments: CommentsRepository;
  blocking: BlockingRepository;
  counters: CountersRepository;
  events?: CommentEvents;
  /** The public cache's counts (absent without it): told what a new comment left, so its post's page is not read again. */
  liveCounts?: CountsWriteBack;
}

type ReplyPlace = { thread_at: string; depth: number | string; id: string };
/** A cursor after this reply: its place in its thread's order (comment-replies.queries.ts THREAD_ORDER). */
const replyCursor = (row: ReplyPlace) => encodeCursor([row.thread_at, String(row.depth), row.id]);

/**
 * The reply a cursor names (replyCursor). A cursor of two parts, (created_at, id), was written
 * before replies were ordered with their depth (2026-12-07): it reads on from about there (a reply
 * read again is not shown twice by the panel).
 */
function decodeReplyCursor(cursor: string | undefined): ReplyPosition | undefined {
  if (!cursor) return undefined;
  let parts: string[];
  try {
    parts = decodeTimeKeyCursor(cursor, 3)!;
  } catch {
    const [createdAt, id] = decodeTimeKeyCursor(cursor, 2)!;
    parts = [createdAt!, '1', id!];
  }
  const [threadAt, depth, id] = parts as [string, string, string];
  if (!/^[1-9]\d{0,5}$/.test(depth)) throw badRequest('Invalid cursor');
  return { threadAt, depth: Number(depth), id };
}

/**
 * The threads a page of replies cut short, each with the cursor that reads the rest: the page holds
 * the start of each thread (the repository shares it between threads), so the rest of a thread
 * comes after the last of its replies shown.
 */
function cutThreads(shown: (ReplyPlace & { root_id: string; thread_size?: number | string })[]) {
  const threads = new Map<string, { shown: number; size: number; last: ReplyPlace }>();
  for (const row of shown) {
    const thread = threads.get(row.root_id);
    if (thread) {
      thread.shown++;
      thread.last = row;
    } else threads.set(row.root_id, { shown: 1, size: Number(row.thread_size), last: row });
  }
  const cut: Record<string, string> = {};
  for (const [rootId, { shown: count, size, last }] of threads) if (count < size) cut[rootId] = replyCursor(last);
  return cut;
}

/** Threaded comments (SPEC.md 2 Comment panel, 4, 6): owners edit and delete, blog creators delete. */
export class CommentsService {
  constructor(private readonly deps: Deps) {}

  async list(blogId: string, viewerId: string | null, page: number, limit: number) {
    const blog = this.visible(await this.deps.blogs.findRef(blogId), viewerId);
    // The count is read on its own: the post's reference (findRef) comes from an index without it.
    const [rows, counts] = await Promise.all([
      this.deps.comments.listTopLevel(blog.id, viewerId, limit, (page - 1) * limit),
      this.deps.blogs.findCounts(blogId),
    ]);
    const top = rows.slice(0, limit);
    // reply_count counts the visible replies: an anonymous reader (the cached page) has nothing
    // below a comment without any, while a signed-in one may see their own hidden reply there.
    const parents = viewerId ? top : top.filter((c) => c.reply_count > 0);
    const parentIds = parents.map((c) => c.id);
    // The repository reads one more reply than a page holds, which tells a truncated page.
    const replies = await this.deps.comments.listDescendants(parentIds, viewerId);
    const shown = replies.slice(0, MAX_REPLIES_PER_PAGE);
    return {
      comments: buildThreads(top, shown),
      hasMore: rows.length > limit,
      total: counts?.comment_count ?? 0,
      truncated: replies.length > shown.length,
      replyCursors: cutThreads(shown),
    };
  }

  /**
   * The replies below one comment of the post (any depth) the viewer may read, oldest first,
   * after the cursor, flat: a thread a page of comments cut short (replyCursors) reads on here.
   */
  async replies(blogId: string, commentId: string, viewerId: string | null, cursor: string | undefined) {
    const from = decodeReplyCursor(cursor);
    const blog = this.visible(await this.deps.blogs.findRef(blogId), viewerId);
    const thread = await this.deps.comments.thread(commentId);
    if (!thread?.[0] || thread[0].blog_id !== blog.id || !canReadThread(viewerId, thread)) throw notFound('Comment not found');
    const rows = await this.deps.comments.listThreadReplies(commentId, viewerId, from);
    const shown = rows.slice(0, MAX_REPLIES_PER_PAGE);
    const last = shown[shown.length - 1];
    return {
      replies: shown.map((row) => presentComment(row)),
      nextCursor: rows.length > shown.length && last ? replyCursor(last) : null,
    };
  }

  async create(userId: string, blogId: string, text: string, parentId: string | null): Promise<CommentView> {
    const { db, comments, events } = this.deps;
    // The post and the comment's author in one read (their card goes in the answer).
    const blog = this.visible(await this.deps.refs.withActor(blogId, userId), userId);
    // Gone since their token was checked (its state is kept for seconds): nothing to write for them.
    if (!blog.actor_username) throw unauthorized(USER_MESSAGES.sessionExpired);
    let parentAuthorId: string | null = null;
    if (parentId) {
      const thread = await comments.thread(parentId);
      const parent = thread?.[0];
      if (!thread || !parent || parent.blog_id !== blog.id || !canReadThread(userId, thread)) throw notFound('Comment not found');
      if (!canReplyTo(thread)) throw forbidden(BLOCK_MESSAGES.cannotReply);
      parentAuthorId = parent.user_id;
    }
    // Everyone the comment reaches: the post's creator and, for a reply, the parent's author.
    const reached: RelatedUser[] = blog.creator_id ? [{ id: blog.creator_id, relations: blog.creator_relations }] : [];
    if (parentAuthorId) reached.push({ id: parentAuthorId, relations: null });
    const blocked = await this.deps.blocking.blockedBetween(userId, reached);
    if (!canInteract(userId, blog, blocked)) throw forbidden(parentId ? BLOCK_MESSAGES.cannotReply : BLOCK_MESSAGES.cannotComment);
    const now = nowIso();
    const row = {
      id: newId(),
      blog_id: blog.id,
      user_id: userId,
      parent_id: parentId,
      comment: text,
      like_count: 0,
      reply_count: 0,
      created_at: now,
      updated_at: now,
    };
    const created: CommentCreated = { commentId: row.id, blog, authorId: userId, parentAuthorId };
    const notices = (await events?.commentNotices?.(created)) ?? NO_NOTICES;
    // Built from what is written rather than read back: a comment costs one query less.
    const view = presentComment({
      ...row,
      hidden: 0,
      author_name: blog.actor_name,
      author_username: blog.actor_username,
      author_profile_pic: blog.actor_profile_pic,
      is_liked: 0,
    });
    // A top-level comment visitors may read goes into the cached (visitors') first page of the
    // post's comments as it is (comments.presenter withNewComment) instead of that page being read
    // again; a reply changes its thread, so the page is dropped.
    const visitorsSee = !parentId && canReadComment(null, { ...row, hidden: 0 });
    const added = visitorsSee ? [{ tag: commentsTag(blog.blog_id), value: view, since: performance.now() }] : [];
    const touched = { tags: commentCountTags(blog.blog_id), tables: ['comments', 'blogs'], added };
    const epoch = this.deps.liveCounts?.epoch;
    const counts = isPostgres(db)
      ? // One statement instead of a five-statement transaction (comments.repo createInOneStatement).
        await oneStatement(db, touched, (held) => comments.createInOneStatement(row, notices, held))
      : await transact(db, async (tx) => {
          const trx = tx.db;
          await comments.insert(row, trx);
          if (parentId) await comments.adjustReplyCount(parentId, 1, trx);
          const after = await comments.adjustBlogCommentCount(blog.id, 1, trx);
          await tx.touch(touched.tags, touched.tables, touched.added);
          await notices.record(trx);
          return after;
        });
    if (counts && epoch !== undefined) this.deps.liveCounts!.learn(countsTag(blog.blog_id), rowCountsText(counts), epoch);
    await notices.settle();
    return view;
  }

  async edit(userId: string, commentId: string, text: string): Promise<CommentView> {
    const { db, blogs, comments } = this.deps;
    // As for a like: a comment on a post its author can no longer read (hidden, back to draft), or
    // below someone else's hidden comment, is out of reach, not only out of sight.
    const thread = await comments.thread(commentId);
    const comment = thread?.[0];
    if (!thread || !comment || !canReadThread(userId, thread)) throw notFound('Comment not found');
    const blog = await blogs.findById(comment.blog_id);
    if (!blog || !canReadBlog(userId, blog)) throw notFound('Comment not found');
    if (!canEditComment(userId, comment)) throw forbidden('Only the author of a comment can edit it');
    await transact(db, async (tx) => {
      await comments.updateText(commentId, text, nowIso(), tx.db);
      await tx.touch([commentsTag(blog.blog_id)], ['comments']);
    });
    return presentComment((await this.deps.comments.findWithAuthor(commentId, userId))!);
  }

  /** The comment's author or the blog's creator may delete it, with every reply below it. */
  async remove(userId: string, commentId: string): Promise<void> {
    const { db, blogs, comments } = this.deps;
    const comment = await comments.findById(commentId);
    if (!comment) throw notFound('Comment not found');
    const blog = await blogs.findById(comment.blog_id);
    if (!canDeleteComment(userId, comment, blog)) throw forbidden('You can only delete your own comments or comments on your blog');
    await transact(db, async (tx) => {
      const trx = tx.db;
      await this.deps.events?.onCommentDeleting?.({ blogDbId: comment.blog_id, commentId }, tx);
      await comments.delete(commentId, trx);
      // Hidden comments (issue 15) are not counted, so the counts are taken again from what is left.
      if (comment.parent_id) await this.deps.counters.recountComments([comment.parent_id], trx);
      await this.deps.counters.recountBlogComments([comment.blog_id], trx);
      // Replies and their likes go too (ON DELETE CASCADE): all on this post's comments.
      if (blog) await tx.touch(commentCountTags(blog.blog_id), ['comments', 'comment_likes', 'blogs']);
    });
  }

  async toggleLike(userId: string, commentId: string): Promise<{ message: string; liked: boolean; likeCount: number }> {
    const { db, blogs, comments, events } = this.deps;
    const thread = await comments.thread(commentId);
    const comment = thread?.[0];
    if (!thread || !comment || !canReadThread(userId, thread)) throw notFound('Comment not found');
    const blog = await blogs.findById(comment.blog_id);
    if (!blog || !canReadBlog(userId, blog)) throw notFound('Comment not found');
    if (!canWithdrawReaction(userId, blog)) throw forbidden(BLOCK_MESSAGES.cannotLikeComment);
    // Read before the transaction (which holds SQLite's one connection); asked only when adding.
    const blocked = await this.deps.blocking.blockedBetween(userId, [{ id: comment.user_id, relations: null }]);
    return transact(db, async (tx) => {
      const trx = tx.db;
      let liked: boolean;
      let delta = 0;
      if (await comments.removeLike(commentId, userId, trx)) {
        // Taking one's own like back is allowed across a block made since.
        liked = false;
        delta = -1;
      } else {
        // A new like reaches the comment's author: a block either way forbids it (nothing changed yet).
        if (!canInteract(userId, blog, blocked)) throw forbidden(BLOCK_MESSAGES.cannotLikeComment);
        liked = true;
        delta = (await comments.addLike(commentId, userId, nowIso(), trx)) ? 1 : 0;
      }
      const likeCount = await comments.adjustLikeCount(commentId, delta, trx);
      await tx.touch([commentsTag(blog.blog_id)], ['comment_likes', 'comments']);
      if (delta) await events?.onCommentLikeChanged?.({ commentId, blog, commentAuthorId: comment.user_id, userId, liked }, tx);
      return { message: liked ? COMMENT_MESSAGES.liked : COMMENT_MESSAGES.unliked, liked, likeCount };
    });
  }

  /** The blog whose comments are read or written: missing to whoever the policy turns away. */
  private visible<B extends BlogRef>(blog: B | undefined, viewerId: ViewerId): B {
    if (!blog || !canReadBlog(viewerId, blog)) throw notFound(BLOG_MESSAGES.notFound);
    return blog;
  }
}
