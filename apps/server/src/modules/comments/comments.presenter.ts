import { type Comment, type CommentListResponse, commentListQuery, commentSchema } from '@inkwell/core';
import { truthy } from '../../db/flags';
import type { CommentRow } from './comments.repo';

/** The API's comment shape, defined once in packages/core. */
export type CommentView = Comment;

export function presentComment(row: CommentRow): CommentView {
  return {
    _id: row.id,
    comment: row.comment,
    user: row.author_username
      ? { _id: row.user_id, name: row.author_name ?? '', username: row.author_username, profilePic: row.author_profile_pic ?? null }
      : null,
    likeCount: row.like_count,
    isLiked: truthy(row.is_liked),
    replyCount: row.reply_count,
    parentComment: row.parent_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    hidden: Number(row.hidden) !== 0,
    replies: [],
  };
}

/** Nests replies under their parents (SPEC.md 2: replies are nested and indented). */
export function buildThreads(topLevel: CommentRow[], descendants: CommentRow[]): CommentView[] {
  const byId = new Map<string, CommentView>();
  const roots = topLevel.map((row) => {
    const view = presentComment(row);
    byId.set(view._id, view);
    return view;
  });
  const views = descendants.map((row) => {
    const view = presentComment(row);
    byId.set(view._id, view);
    return view;
  });
  // Attached once every row has a view: a reply dated before its parent (another instance's
  // clock) comes first in the list and was dropped when its parent was looked up too early.
  views.forEach((view, i) => {
    const parentId = descendants[i]!.parent_id;
    if (parentId) byId.get(parentId)?.replies.push(view);
  });
  return roots;
}

/**
 * The cached anonymous first page of a post's comments with a new top-level comment visitors may
 * read (the service asks the policy) in its place, newest first, for the response cache
 * (lib/response-cache.ts CachePatch): the writer already holds what the page's next reader would
 * have read back. Undefined, and the page is read again, for any other page, a reply, a comment
 * written in the same millisecond as one on the page (their order is the database's), or a page
 * whose replies were cut short (dropping its last thread could change that).
 */
export function withNewComment(url: string, body: string, added: unknown): string | undefined {
  const comment = commentSchema.encode(added as CommentView);
  const limit = firstPageLimit(url);
  if (comment.parentComment !== null || limit === undefined) return undefined;
  const page = JSON.parse(body) as CommentListResponse;
  if (page.truncated) return undefined;
  const newer = page.comments.findIndex((c) => c.createdAt <= comment.createdAt);
  const at = newer === -1 ? page.comments.length : newer;
  if (page.comments[at]?.createdAt === comment.createdAt) return undefined;
  page.comments.splice(at, 0, comment);
  if (page.comments.length > limit) {
    page.comments.pop();
    page.hasMore = true;
  }
  page.total += 1;
  return JSON.stringify(page);
}

/** The page size of a first-page URL of the comments list (page and limit its only parameters), else undefined. */
function firstPageLimit(url: string): number | undefined {
  const q = url.indexOf('?');
  const params = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  const keys = [...params.keys()];
  if (new Set(keys).size !== keys.length || keys.some((k) => k !== 'page' && k !== 'limit')) return undefined;
  const query = commentListQuery.safeParse(Object.fromEntries(params));
  return query.success && query.data.page === 1 ? query.data.limit : undefined;
}
