import type { CommentListResponse } from '@inkwell/core';

/** A comment as the API returns it: the shape is defined once, in packages/core. */
export type { Comment, CommentUser } from '@inkwell/core';

/**
 * One page of GET /blogs/{blogId}/comments as the comment panel caches it. `replyCursors` lives
 * here, not in component state, so a thread read on keeps its place across re-renders and a
 * refetch of the pages starts it over with the server's.
 */
export type CommentsPage = Pick<CommentListResponse, 'comments' | 'hasMore' | 'total' | 'replyCursors'>;
