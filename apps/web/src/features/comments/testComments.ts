import type { Comment } from './types';

/** A comment with the given replies, for the tree and cache tests. */
export const makeComment = (id: string, replies: Comment[] = [], extra: Partial<Comment> = {}): Comment => ({
  _id: id,
  comment: `text ${id}`,
  user: { _id: `u-${id}`, name: 'N', username: 'n', profilePic: null },
  likeCount: 0,
  isLiked: false,
  replyCount: replies.length,
  parentComment: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  hidden: false,
  replies,
  ...extra,
});
