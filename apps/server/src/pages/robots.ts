import type { FastifyPluginAsync } from 'fastify';
import { sendPublicDocument } from './feeds-http';

/**
 * Paths crawlers are asked to leave alone: the API, and the screens that are only a signed-in
 * user's own (settings, editor, profile editing, notifications) or one-time e-mail links.
 * Everything else (home, posts, profiles, tags, search, feeds) is public.
 */
export const ROBOTS_DISALLOW = [
  '/api/',
  '/setting',
  '/add-blog',
  '/edit/',
  '/edit-profile',
  '/notifications',
  '/verify-email/',
  '/confirm-transfer/',
  '/moderation',
];

export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

export const robotsRoutes: FastifyPluginAsync = async (app) => {
  const body = robotsTxt(app.services.config.publicUrl);
  app.get('/robots.txt', { config: { publicCache: 'anyone' } }, async (request, reply) =>
    sendPublicDocument(request, reply, { body, type: 'text/plain; charset=utf-8' }),
  );
};
