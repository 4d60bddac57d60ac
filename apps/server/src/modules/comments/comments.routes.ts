import {
  COMMENT_MESSAGES,
  commentBody,
  commentLikeResponse,
  commentListQuery,
  commentListResponse,
  commentRepliesQuery,
  commentRepliesResponse,
  containsLink,
  editCommentBody,
  newCommentResponse,
  newReplyResponse,
  replyBody,
  updatedCommentResponse,
} from '@inkwell/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commentsTag, postTag } from '../../lib/public-tags';
import { withNewComment } from './comments.presenter';

const blogId = z.string().min(1).max(120);
const commentId = z.uuid('Comment not found');

/** New accounts have a lower count for comments and replies with links (RATE_LIMITS['comment-link']). */
const linkComment = {
  policy: 'comment-link' as const,
  when: (r: FastifyRequest) => containsLink((r.body as z.infer<typeof commentBody>).comment),
};
/** An edit that leaves a link in the text counts too: otherwise a plain comment edited into spam would not. */
const linkEdit = {
  policy: 'comment-link' as const,
  when: (r: FastifyRequest) => containsLink((r.body as z.infer<typeof editCommentBody>).updatedCommentContent),
};
const linkReply = {
  policy: 'comment-link' as const,
  when: (r: FastifyRequest) => containsLink((r.body as z.infer<typeof replyBody>).reply),
};

/** What a read of a post's comments shows: the post (gone, hidden) and its comments. */
const commentTags = (request: FastifyRequest) => {
  const { blogId } = request.params as { blogId: string };
  return [postTag(blogId), commentsTag(blogId)];
};

/** Threaded comments (SPEC.md 7) plus a paginated read of a blog's comments. */
export const commentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { comments } = app.services;
  const ok = <T extends object>(body: T) => ({ success: true as const, ...body });

  app.get(
    '/blogs/:blogId/comments',
    {
      config: {
        publicCache: 'anonymous',
        cacheTags: commentTags,
        cachePatch: withNewComment,
      },
      onRequest: app.identify,
      schema: {
        params: z.object({ blogId }),
        querystring: commentListQuery,
        response: { 200: commentListResponse },
      },
    },
    async (request) => ok(await comments.list(request.params.blogId, request.user?.id ?? null, request.query.page, request.query.limit)),
  );

  app.get(
    '/blogs/:blogId/comments/:commentId/replies',
    {
      config: {
        publicCache: 'anonymous',
        cacheTags: commentTags,
      },
      onRequest: app.identify,
      schema: {
        params: z.object({ blogId, commentId }),
        querystring: commentRepliesQuery,
        response: { 200: commentRepliesResponse },
      },
    },
    async (request) =>
      ok(await comments.replies(request.params.blogId, request.params.commentId, request.user?.id ?? null, request.query.cursor)),
  );

  app.post(
    '/blogs/comment/:blogId',
    {
      config: { rateLimit: 'comment', rateLimitAlso: linkComment },
      onRequest: app.authenticate,
      schema: {
        params: z.object({ blogId }),
        body: commentBody,
        response: { 201: newCommentResponse },
      },
    },
    async (request, reply) => {
      const newComment = await comments.create(request.user!.id, request.params.blogId, request.body.comment, null);
      return reply.status(201).send(ok({ message: COMMENT_MESSAGES.added, newComment }));
    },
  );

  app.post(
    '/comment/:parentCommentId/:blogId',
    {
      config: { rateLimit: 'comment', rateLimitAlso: linkReply },
      onRequest: app.authenticate,
      schema: {
        params: z.object({ parentCommentId: commentId, blogId }),
        body: replyBody,
        response: { 201: newReplyResponse },
      },
    },
    async (request, reply) => {
      const newReply = await comments.create(request.user!.id, request.params.blogId, request.body.reply, request.params.parentCommentId);
      return reply.status(201).send(ok({ message: COMMENT_MESSAGES.replyAdded, newReply }));
    },
  );

  app.patch(
    '/blogs/like-comment/:commentId',
    {
      config: { rateLimit: 'like' },
      onRequest: app.authenticate,
      schema: {
        params: z.object({ commentId }),
        response: { 200: commentLikeResponse },
      },
    },
    async (request) => ok(await comments.toggleLike(request.user!.id, request.params.commentId)),
  );

  app.patch(
    '/blogs/edit-comment/:commentId',
    {
      config: { rateLimit: 'comment-edit', rateLimitAlso: linkEdit },
      onRequest: app.authenticate,
      schema: {
        params: z.object({ commentId }),
        body: editCommentBody,
        response: { 200: updatedCommentResponse },
      },
    },
    async (request) =>
      ok({
        message: COMMENT_MESSAGES.updated,
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
      return ok({ message: COMMENT_MESSAGES.deleted });
    },
  );
};
