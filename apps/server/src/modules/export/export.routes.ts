import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const blogParams = z.object({ id: z.string().min(1).max(120) });

/** Markdown export of a post and 'Download my data' (issue 16). Handlers only translate HTTP. */
export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { exports } = app.services;

  app.get(
    '/blogs/:id/markdown',
    {
      onRequest: app.identify,
      schema: {
        params: blogParams,
        description: 'The post as a Markdown file with YAML front matter. A draft only for its author (404 for anyone else).',
      },
    },
    async (request, reply) => {
      const { fileName, markdown } = await exports.postMarkdown(request.params.id, request.user?.id ?? null);
      return reply
        .header('content-type', 'text/markdown; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(markdown);
    },
  );

  app.get(
    '/account/export',
    {
      // No automatic HEAD twin: it would read the whole account to send nothing.
      exposeHeadRoute: false,
      config: { rateLimit: 'export' },
      onRequest: app.authenticate,
      schema: {
        description:
          "'Download my data': a zip of data.json (profile, posts, comments, likes, saves, follows) and one Markdown file a post, streamed.",
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await exports.accountArchive(request.user!.id);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );
};
