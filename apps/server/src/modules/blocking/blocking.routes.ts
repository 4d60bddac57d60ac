import { blockListQuery, blockListResponse, relationResponse } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RelationKind } from './blocking.repo';

const params = z.object({ id: z.uuid('id: not a valid user id') });

/** POST/DELETE /users/{id}/block and /mute, GET /blocks (issue 15). Handlers only translate HTTP. */
export const blockingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { blocking } = app.services;
  for (const [segment, kind] of [
    ['block', 'blocked'],
    ['mute', 'muted'],
  ] as [string, RelationKind][]) {
    for (const [method, on] of [
      ['post', true],
      ['delete', false],
    ] as const) {
      app[method](
        `/users/:id/${segment}`,
        {
          config: { rateLimit: 'block' },
          onRequest: app.authenticate,
          schema: { params, response: { 200: relationResponse } },
        },
        async (request) => ({ success: true as const, ...(await blocking.set(kind, request.user!.id, request.params.id, on)) }),
      );
    }
  }

  app.get(
    '/blocks',
    { onRequest: app.authenticate, schema: { querystring: blockListQuery, response: { 200: blockListResponse } } },
    async (request) => {
      const { kind, page, limit } = request.query;
      return { success: true as const, ...(await blocking.list(kind, request.user!.id, page, limit)) };
    },
  );
};
