import {
  autosaveNewRequest,
  autosaveRequest,
  autosaveResponse,
  messageResponse,
  pendingAutosaveResponse,
  restoreRequest,
  restoreResponse,
  revisionListResponse,
  revisionResponse,
} from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const blogParams = z.object({ id: z.string().min(1).max(120) });
const revisionParams = blogParams.extend({ revisionId: z.string().min(1).max(64) });

/** Autosave and revision history of a post (issue 16); the author's own, never public. */
export const revisionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { revisions } = app.services;
  const autosave = { config: { rateLimit: 'autosave' as const }, onRequest: app.authenticate };

  // The first autosave of a new post creates it: it counts against the creation limit like POST /blogs.
  app.post(
    '/blogs/autosave',
    {
      config: { rateLimit: 'post' },
      onRequest: app.authenticate,
      schema: { body: autosaveNewRequest, response: { 201: autosaveResponse } },
    },
    async (request, reply) => {
      return reply.status(201).send({ success: true as const, ...(await revisions.autosaveNew(request.user!.id, request.body)) });
    },
  );

  app.put(
    '/blogs/:id/autosave',
    { ...autosave, schema: { params: blogParams, body: autosaveRequest, response: { 200: autosaveResponse } } },
    async (request) => ({ success: true as const, ...(await revisions.autosave(request.user!.id, request.params.id, request.body)) }),
  );

  app.get(
    '/blogs/:id/autosave',
    { onRequest: app.authenticate, schema: { params: blogParams, response: { 200: pendingAutosaveResponse } } },
    async (request) => ({ success: true as const, ...(await revisions.pending(request.user!.id, request.params.id)) }),
  );

  app.delete(
    '/blogs/:id/autosave',
    { ...autosave, schema: { params: blogParams, response: { 200: messageResponse } } },
    async (request) => ({ success: true, message: (await revisions.discard(request.user!.id, request.params.id)).message }),
  );

  app.get(
    '/blogs/:id/revisions',
    { onRequest: app.authenticate, schema: { params: blogParams, response: { 200: revisionListResponse } } },
    async (request) => ({ success: true as const, ...(await revisions.list(request.user!.id, request.params.id)) }),
  );

  app.get(
    '/blogs/:id/revisions/:revisionId',
    { onRequest: app.authenticate, schema: { params: revisionParams, response: { 200: revisionResponse } } },
    async (request) => ({
      success: true as const,
      revision: await revisions.get(request.user!.id, request.params.id, request.params.revisionId),
    }),
  );

  app.post(
    '/blogs/:id/revisions/:revisionId/restore',
    {
      config: { rateLimit: 'revision-restore' },
      onRequest: app.authenticate,
      schema: { params: revisionParams, body: restoreRequest.optional(), response: { 200: restoreResponse } },
    },
    async (request) => ({
      success: true as const,
      ...(await revisions.restore(request.user!.id, request.params.id, request.params.revisionId, request.body?.version)),
    }),
  );
};
