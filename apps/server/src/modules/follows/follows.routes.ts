import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** PATCH /follow/{userId} (SPEC.md 7): toggles following; returns the final state. */
export const followsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/follow/:userId',
    {
      config: { rateLimit: 'follow' },
      onRequest: app.authenticate,
      schema: {
        params: z.object({ userId: z.uuid('userId: not a valid user id') }),
        response: { 200: z.object({ success: z.literal(true), message: z.string(), following: z.boolean() }) },
      },
    },
    async (request) => ({ success: true as const, ...(await app.services.follows.toggle(request.user!.id, request.params.userId)) }),
  );
};
