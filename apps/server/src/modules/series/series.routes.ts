import {
  blogSeriesRequest,
  messageResponse,
  SERIES_MESSAGES,
  seriesListResponse,
  seriesMineQuery,
  seriesPostsRequest,
  seriesResponse,
  seriesTitleRequest,
  seriesWriteResponse,
} from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const seriesParams = z.object({ id: z.string().min(1).max(64) });
const blogParams = z.object({ id: z.string().min(1).max(120) });
const blogSeriesResponse = z.object({ success: z.literal(true), seriesId: z.string().nullable() });

/** Series (issue 16): the author's ordered groups of posts; reading one is public. */
export const seriesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { series } = app.services;
  const write = { config: { rateLimit: 'series' as const }, onRequest: app.authenticate };

  app.get(
    '/series/mine',
    { onRequest: app.authenticate, schema: { querystring: seriesMineQuery, response: { 200: seriesListResponse } } },
    async (request) => ({ success: true as const, ...(await series.mine(request.user!.id, request.query)) }),
  );

  app.get(
    '/series/:id',
    { onRequest: app.identify, schema: { params: seriesParams, response: { 200: seriesResponse } } },
    async (request) => ({ success: true as const, series: await series.get(request.user?.id ?? null, request.params.id) }),
  );

  app.post(
    '/series',
    { ...write, schema: { body: seriesTitleRequest, response: { 201: seriesWriteResponse } } },
    async (request, reply) => {
      const created = await series.create(request.user!.id, request.body.title);
      return reply.status(201).send({ success: true as const, message: SERIES_MESSAGES.created, series: created });
    },
  );

  app.patch(
    '/series/:id',
    { ...write, schema: { params: seriesParams, body: seriesTitleRequest, response: { 200: seriesWriteResponse } } },
    async (request) => ({
      success: true as const,
      message: SERIES_MESSAGES.renamed,
      series: await series.rename(request.user!.id, request.params.id, request.body.title),
    }),
  );

  app.delete('/series/:id', { ...write, schema: { params: seriesParams, response: { 200: messageResponse } } }, async (request) => {
    await series.remove(request.user!.id, request.params.id);
    return { success: true, message: SERIES_MESSAGES.deleted };
  });

  app.put(
    '/series/:id/posts',
    { ...write, schema: { params: seriesParams, body: seriesPostsRequest, response: { 200: seriesWriteResponse } } },
    async (request) => ({
      success: true as const,
      message: SERIES_MESSAGES.updated,
      series: await series.setPosts(request.user!.id, request.params.id, request.body.blogIds),
    }),
  );

  app.get(
    '/blogs/:id/series',
    { onRequest: app.authenticate, schema: { params: blogParams, response: { 200: blogSeriesResponse } } },
    async (request) => ({ success: true as const, seriesId: await series.seriesOfBlog(request.user!.id, request.params.id) }),
  );

  app.put(
    '/blogs/:id/series',
    { ...write, schema: { params: blogParams, body: blogSeriesRequest, response: { 200: blogSeriesResponse } } },
    async (request) => {
      await series.setBlogSeries(request.user!.id, request.params.id, request.body.seriesId);
      return { success: true as const, seriesId: request.body.seriesId };
    },
  );
};
