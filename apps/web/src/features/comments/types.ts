import type { CommentListResponse } from '@inkwell/core';

/** A comment as the API returns it: the shape is defined once, in packages/core. */
export type { Comment, CommentUser } from '@inkwell/core';

/** One page of GET /blogs/{blogId}/comments as the comment panel caches it. */
export type CommentsPage = Pick<CommentListResponse, 'comments' | 'hasMore' | 'total'>;
