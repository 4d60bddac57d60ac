import type { FastifyPluginAsync } from 'fastify';
import { sendPublicDocument } from './feeds-http';
import { SITEMAP_SECTIONS, sitemapFilePath } from './sitemap.service';

const XML = 'application/xml; charset=utf-8';

/** `/sitemap.xml` (the index) and `/sitemaps/{posts|profiles|tags}.xml[?after=key][&until=key]` (the files). */
export const sitemapRoutes: FastifyPluginAsync = async (app) => {
  const { sitemap } = app.services;
  const config = { publicCache: 'anyone' as const };

  app.get('/sitemap.xml', { config }, async (request, reply) =>
    sendPublicDocument(request, reply, { body: await sitemap.index(), type: XML }),
  );

  for (const section of SITEMAP_SECTIONS) {
    app.get<{ Querystring: { after?: unknown; until?: unknown } }>(sitemapFilePath(section), { config }, async (request, reply) => {
      const { after, until } = request.query;
      const { xml } = await sitemap.file(section, {
        after: typeof after === 'string' ? after : undefined,
        until: typeof until === 'string' ? until : undefined,
      });
      return sendPublicDocument(request, reply, { body: xml, type: XML });
    });
  }
};
