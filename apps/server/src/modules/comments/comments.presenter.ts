import type { Comment } from '@inkwell/core';
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
  for (const row of descendants) {
    const view = presentComment(row);
    byId.set(view._id, view);
    if (row.parent_id) byId.get(row.parent_id)?.replies.push(view);
  }
  return roots;
}
