import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const params = z.object({ blogId: z.string().min(1).max(120) });

/** Like and save toggles (SPEC.md 7). */
export const reactionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reactions } = app.services;

  app.post(
    '/blogs/like/:blogId',
    {
      config: { rateLimit: 'like' },
      onRequest: app.authenticate,
      schema: {
        params,
        response: { 200: z.object({ success: z.literal(true), message: z.string(), liked: z.boolean(), likeCount: z.number() }) },
      },
    },
    async (request) => ({ success: true as const, ...(await reactions.toggleLike(request.user!.id, request.params.blogId)) }),
  );

  app.patch(
    '/save-blog/:blogId',
    {
      config: { rateLimit: 'save' },
      onRequest: app.authenticate,
      schema: {
        params,
        response: { 200: z.object({ success: z.literal(true), message: z.string(), saved: z.boolean(), saveCount: z.number() }) },
      },
    },
    async (request) => ({ success: true as const, ...(await reactions.toggleSave(request.user!.id, request.params.blogId)) }),
  );
};
