import { commentText } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { postTag } from '../../lib/public-tags';

const blogId = z.string().min(1).max(120);
const commentId = z.uuid('Comment not found');

const commentUser = z.object({ _id: z.string(), name: z.string(), username: z.string(), profilePic: z.string().nullable() }).nullable();
interface CommentOut {
  _id: string;
  comment: string;
  user: z.infer<typeof commentUser>;
  likeCount: number;
  isLiked: boolean;
  replyCount: number;
  parentComment: string | null;
  createdAt: string;
  updatedAt: string;
  replies: CommentOut[];
}
const comment: z.ZodType<CommentOut> = z
  .lazy(() =>
    z.object({
      _id: z.string(),
      comment: z.string(),
      user: commentUser,
      likeCount: z.number(),
      isLiked: z.boolean(),
      replyCount: z.number(),
      parentComment: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
      replies: z.array(comment),
    }),
  )
  .meta({ id: 'Comment' }); // a recursive schema needs a name to be a component of the OpenAPI document

/** Threaded comments (SPEC.md 7) plus a paginated read of a blog's comments. */
export const commentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { comments } = app.services;
  const ok = <T extends object>(body: T) => ({ success: true as const, ...body });

  app.get(
    '/blogs/:blogId/comments',
    {
      config: { publicCache: 'anonymous', cacheTags: (request) => [postTag((request.params as { blogId: string }).blogId)] },
      onRequest: app.identify,
      schema: {
        params: z.object({ blogId }),
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(10_000).default(1),
          limit: z.coerce.number().int().min(1).max(50).default(20),
        }),
        response: {
          200: z.object({
            success: z.literal(true),
            comments: z.array(comment),
            hasMore: z.boolean(),
            total: z.number(),
            truncated: z.boolean(),
          }),
        },
      },
    },
    async (request) => ok(await comments.list(request.params.blogId, request.user?.id ?? null, request.query.page, request.query.limit)),
  );

  app.post(
    '/blogs/comment/:blogId',
    {
      config: { rateLimit: 'comment' },
      onRequest: app.authenticate,
      schema: {
        params: z.object({ blogId }),
        body: z.object({ comment: commentText }),
        response: { 201: z.object({ success: z.literal(true), message: z.string(), newComment: comment }) },
      },
    },
    async (request, reply) => {
      const newComment = await comments.create(request.user!.id, request.params.blogId, request.body.comment, null);
      return reply.status(201).send(ok({ message: 'Comment added', newComment }));
    },
  );

  app.post(
    '/comment/:parentCommentId/:blogId',
    {
      config: { rateLimit: 'comment' },
      onRequest: app.authenticate,
      schema: {
        params: z.object({ parentCommentId: commentId, blogId }),
        body: z.object({ reply: commentText }),
        response: { 201: z.object({ success: z.literal(true), message: z.string(), newReply: comment }) },
      },
    },
    async (request, reply) => {
      const newReply = await comments.create(request.user!.id, request.params.blogId, request.body.reply, request.params.parentCommentId);
      return reply.status(201).send(ok({ message: 'Reply added', newReply }));
    },
  );

  app.patch(
    '/blogs/like-comment/:commentId',
    {
      config: { rateLimit: 'like' },
      onRequest: app.authenticate,
      schema: {
        params: z.object({ commentId }),
        response: { 200: z.object({ success: z.literal(true), message: z.string(), liked: z.boolean(), likeCount: z.number() }) },
      },
    },
    async (request) => ok(await comments.toggleLike(request.user!.id, request.params.commentId)),
  );

  app.patch(
    '/blogs/edit-comment/:commentId',
    {
      config: { rateLimit: 'comment-edit' },
      onRequest: app.authenticate,
      schema: {
        params: z.object({ commentId }),
        body: z.object({ updatedCommentContent: commentText }),
        response: { 200: z.object({ success: z.literal(true), message: z.string(), updatedComment: comment }) },
      },
    },
    async (request) =>
      ok({
        message: 'Comment updated',
        updatedComment: await comments.edit(request.user!.id, request.params.commentId, request.body.updatedCommentContent),
      }),
  );

  app.delete(
    '/blogs/comment/:commentId',
    {
      config: { rateLimit: 'comment-edit' },
      onRequest: app.authenticate,
      schema: { params: z.object({ commentId }), response: { 200: z.object({ success: z.literal(true), message: z.string() }) } },
    },
    async (request) => {
      await comments.remove(request.user!.id, request.params.commentId);
      return ok({ message: 'Comment deleted' });
    },
  );
};
