import {
  type BlogListQuery,
  type BlogListResponse,
  type BlogResponse,
  blogBody,
  blogListQuery,
  blogListResponse,
  blogResponse,
  blogUpdateBody,
  blogWriteResponse,
  messageResponse,
} from '@inkwell/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { blogPageTags, cardTags, countsTag } from '../../lib/public-tags';
import { blogFormBody, blogInputOf, blogPatchOf } from './blogs.input';
import { countsText, withCounts, withViewerFlags } from './blogs.presenter';

const blogParams = z.object({ id: z.string().min(1).max(120) });
/** A blog is written as JSON, or as a form with its featured image and inline images as files. */
const blogWrite = {
  body: blogBody,
  consumes: ['application/json', 'multipart/form-data'],
  description:
    'JSON, or multipart/form-data with the same fields (content and tags as JSON strings), a featured `image` file and `images` files for image blocks that point at local placeholders.',
};

/** Blogs (SPEC.md 7): feed, reading page, create, update and delete. Search is modules/search. */
export const blogsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { blogs } = app.services;

  // Read answers depend only on the URL, public data and (blog page) the viewer: lib/public-cache.ts.
  // The feed is the same for everyone but a muter (issue 15), whose home page leaves out the muted.
  const feed = {
    cacheTags: (_request: FastifyRequest, body: unknown) => cardTags((body as BlogListResponse).blogs),
    publicCache: 'anonymous' as const,
    viewerOverlay: async (request: FastifyRequest, viewerId: string, anonymousBody: string) =>
      (await blogs.seesSharedList(request.query as BlogListQuery, viewerId)) ? { body: anonymousBody, variant: 'shared' } : undefined,
  };
  // A signed-in reader's page is the cached anonymous one with their own flags. A like does not
  // drop it: its counts are read again and put in (lib/live-counts.ts).
  const blogPage = {
    publicCache: 'anonymous' as const,
    cacheTags: (request: FastifyRequest, body: unknown) => blogPageTags((request.params as { id: string }).id, (body as BlogResponse).blog),
    liveCounts: {
      keyOf: (request: FastifyRequest) => countsTag((request.params as { id: string }).id),
      seen: (body: unknown) => countsText((body as BlogResponse).blog),
      read: (request: FastifyRequest) => blogs.liveCounts((request.params as { id: string }).id),
      apply: withCounts,
    },
    viewerOverlay: async (request: FastifyRequest, viewerId: string, anonymousBody: string) => {
      const flags = await blogs.viewerFlags((request.params as { id: string }).id, viewerId);
      return flags && withViewerFlags(anonymousBody, flags);
    },
  };

  app.get(
    '/blogs',
    { config: feed, onRequest: app.identify, schema: { querystring: blogListQuery, response: { 200: blogListResponse } } },
    async (request) => {
      return { success: true as const, ...(await blogs.list(request.query, request.user?.id ?? null)) };
    },
  );

  app.get(
    '/blogs/:id',
    { config: blogPage, onRequest: app.identify, schema: { params: blogParams, response: { 200: blogResponse } } },
    async (request) => {
      return { success: true as const, blog: await blogs.get(request.params.id, request.user?.id ?? null) };
    },
  );

  app.post(
    '/blogs',
    {
      config: { rateLimit: 'post' },
      onRequest: app.authenticate,
      preValidation: blogFormBody,
      schema: { ...blogWrite, response: { 201: blogWriteResponse } },
    },
    async (request, reply) => {
      const result = await blogs.create(request.user!.id, blogInputOf(request, request.body));
      return reply.status(201).send({ success: true as const, ...result });
    },
  );

  app.patch(
    '/blogs/:id',
    {
      config: { rateLimit: 'post-edit' },
      onRequest: app.authenticate,
      preValidation: blogFormBody,
      schema: { ...blogWrite, body: blogUpdateBody, params: blogParams, response: { 200: blogWriteResponse } },
    },
    async (request) => {
      return { success: true as const, ...(await blogs.update(request.user!.id, request.params.id, blogPatchOf(request, request.body))) };
    },
  );

  app.delete(
    '/blogs/:id',
    { config: { rateLimit: 'post-edit' }, onRequest: app.authenticate, schema: { params: blogParams, response: { 200: messageResponse } } },
    async (request) => {
      return { success: true, message: await blogs.remove(request.user!.id, request.params.id) };
    },
  );
};
