import { z } from 'zod';
import { COMMENTS_PAGE_SIZE, MAX_COMMENT_LENGTH, MAX_PAGE_LIMIT } from '../constants';
import { queryWholeNumber } from './common';
import { visibleText } from './text';

/** A comment or reply: normalized like every text people read, never empty. */
export const commentText = visibleText({
  required: 'Comment cannot be empty',
  max: MAX_COMMENT_LENGTH,
  tooLong: `Comment must be at most ${MAX_COMMENT_LENGTH} characters`,
  multiline: true,
});

export const commentBody = z.object({ comment: commentText });
export const replyBody = z.object({ reply: commentText });
export const editCommentBody = z.object({ updatedCommentContent: commentText });

/** The author of a comment; null once their account is gone. */
export const commentUserSchema = z
  .object({ _id: z.string(), name: z.string(), username: z.string(), profilePic: z.string().nullable() })
  .nullable();
export type CommentUser = z.infer<typeof commentUserSchema>;

/** A comment as the API returns it (GET /blogs/{blogId}/comments and the write calls), replies nested. */
export const commentSchema = z
  .object({
    _id: z.string(),
    comment: z.string(),
    user: commentUserSchema,
    likeCount: z.number(),
    isLiked: z.boolean(),
    replyCount: z.number(),
    parentComment: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    /** Hidden by a moderator or its author suspended (issue 15): only the author (and moderators) ever get true. */
    hidden: z.boolean(),
    get replies(): z.ZodArray<typeof commentSchema> {
      return z.array(commentSchema);
    },
  })
  .meta({ id: 'Comment' }); // a recursive schema needs a name to be a component of the OpenAPI document
export type Comment = z.infer<typeof commentSchema>;

export const commentListQuery = z.object({
  page: queryWholeNumber(1, 10_000, 1),
  limit: queryWholeNumber(1, MAX_PAGE_LIMIT, COMMENTS_PAGE_SIZE),
});

export const commentListResponse = z.object({
  success: z.literal(true),
  comments: z.array(commentSchema),
  hasMore: z.boolean(),
  total: z.number(),
  /** More than MAX_REPLIES_PER_PAGE replies below this page's comments (shared between its threads): some threads are cut short. */
  truncated: z.boolean(),
  /**
   * The threads cut short: top-level comment id → the cursor that reads the rest of its replies
   * (GET /blogs/{blogId}/comments/{commentId}/replies?cursor=). Empty when nothing was cut.
   */
  replyCursors: z.record(z.string(), z.string()),
});
export type CommentListResponse = z.infer<typeof commentListResponse>;

export const commentRepliesQuery = z.object({
  /** A `nextCursor` (or a page's `replyCursors` entry); without it the replies start at the oldest. */
  cursor: z.string().max(200).optional(),
});

/** Replies below one comment, at any depth, oldest first, flat: each goes under its `parentComment`. */
export const commentRepliesResponse = z.object({
  success: z.literal(true),
  replies: z.array(commentSchema),
  /** Ask for the next replies with it (`cursor=`); null when there is no more. */
  nextCursor: z.string().nullable(),
});
export type CommentRepliesResponse = z.infer<typeof commentRepliesResponse>;

export const newCommentResponse = z.object({ success: z.literal(true), message: z.string(), newComment: commentSchema });
export const newReplyResponse = z.object({ success: z.literal(true), message: z.string(), newReply: commentSchema });
export const updatedCommentResponse = z.object({ success: z.literal(true), message: z.string(), updatedComment: commentSchema });
export const commentLikeResponse = z.object({ success: z.literal(true), message: z.string(), liked: z.boolean(), likeCount: z.number() });
export type CommentLikeResponse = z.infer<typeof commentLikeResponse>;
