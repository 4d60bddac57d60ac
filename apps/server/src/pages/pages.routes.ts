import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { articleTag, followersTag, LISTS_TAG, postTag, profileTag } from '../lib/public-tags';
import { routePreloads } from '../web';
import { PageDocument } from './document';
import { sendPublicDocument } from './feeds-http';
import { type PageResult, PagesService } from './pages.service';
import { SocialCards } from './social-card';

const HTML = 'text/html; charset=utf-8';

/** Client routes of screens only the signed-in app shows (apps/web/src/app/routes.tsx). */
const APP_ONLY =
  /^\/(signin|signup|forgot-password|reset-password\/[^/]+|add-blog|edit-profile|setting|notifications|moderation|edit\/[^/]+|verify-email\/[^/]+|confirm-transfer\/[^/]+\/[^/]+)$/;

export interface Pages {
  /** The answer for a GET of a path no route matched: a redirect, an app-only screen or the 404 page. */
  notFound(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

/**
 * Server-rendered public pages: each answers with its own head and first HTML inside the built
 * index.html, through the public response cache like the API's reads ('anyone': a browser's
 * navigation carries no token, and these pages never read the viewer).
 */
export function registerPages(app: FastifyInstance, distDir: string): Pages {
  const { services } = app;
  const document = PageDocument.fromDist(distDir);
  const preloads = routePreloads(distDir);
  const cards = new SocialCards({
    db: services.database.db,
    storage: services.storage,
    publicUrl: services.config.publicUrl,
    log: app.log,
    changes: services.publicData,
  });
  const pages = new PagesService({
    db: services.database.db,
    blogs: services.blogs,
    profiles: services.profiles,
    cards,
    publicUrl: services.config.publicUrl,
  });

  const send = (request: FastifyRequest, reply: FastifyReply, result: PageResult) => {
    const [pathname = '/', query] = request.url.split('?');
    if ('redirect' in result) {
      return reply.header('cache-control', 'public, max-age=3600').redirect(query ? `${result.redirect}?${query}` : result.redirect, 301);
    }
    const html = document.render(result.head, result.body, result.release);
    const link = preloads.find(([pattern]) => pattern.test(pathname))?.[1];
    if (link) reply.header('link', link);
    if (result.status !== 200) return reply.code(result.status).type(HTML).header('cache-control', 'no-cache').send(html);
    // ETag and cache-control as the public cache expects them, and 304 for a reader who has it: as the feeds.
    return sendPublicDocument(request, reply, { body: html, type: HTML });
  };

  // What each page shows, as the tags writes touch (lib/public-tags.ts); HTML cards carry no
  // counts, so likes leave the lists alone. The article shows its counts: its own tag.
  const config = { publicCache: 'anyone' as const };
  const lists = { ...config, cacheTags: () => [LISTS_TAG] };
  const article = {
    ...config,
    cacheTags: (request: FastifyRequest) => {
      const { id } = request.params as { id: string };
      return [postTag(id), articleTag(id), LISTS_TAG];
    },
  };
  const profile = {
    ...config,
    cacheTags: (request: FastifyRequest) => {
      const { username } = request.params as { username: string };
      return [profileTag(username), followersTag(username), LISTS_TAG];
    },
  };
  app.get('/', { config: lists }, async (request, reply) => send(request, reply, await pages.home()));
  app.get<{ Params: { id: string } }>('/blog/:id', { config: article }, async (request, reply) =>
    send(request, reply, await pages.blog(request.params.id)),
  );
  app.get<{ Params: { username: string } }>('/@:username', { config: profile }, async (request, reply) =>
    send(request, reply, await pages.profile(request.params.username, undefined)),
  );
  app.get<{ Params: { username: string; tab: string } }>('/@:username/:tab', { config: profile }, async (request, reply) =>
    // '/@ada/' matches here with an empty tab: one address per page, as '/blog/x/' (notFound below).
    request.params.tab === ''
      ? send(request, reply, { redirect: `/@${encodeURIComponent(request.params.username)}` })
      : send(request, reply, await pages.profile(request.params.username, request.params.tab)),
  );
  app.get<{ Params: { tag: string } }>('/tag/:tag', { config: lists }, async (request, reply) =>
    send(request, reply, await pages.tag(request.params.tag)),
  );
  app.get<{ Querystring: { q?: string | string[] } }>('/search', { config: lists }, async (request, reply) => {
    const q = request.query.q;
    return send(request, reply, await pages.search(typeof q === 'string' ? q : (q?.[0] ?? '')));
  });
  app.get('/about', { config }, async (request, reply) => send(request, reply, await pages.about()));

  return {
    async notFound(request, reply) {
      const pathname = request.url.split('?')[0] ?? '/';
      // One address per page: '/blog/x/' is '/blog/x'.
      if (pathname.length > 1 && pathname.endsWith('/')) {
        // Leading slashes collapsed too: '//host/' must not become a redirect to another site.
        return send(request, reply, { redirect: `/${pathname.replace(/^\/+|\/+$/g, '')}` });
      }
      if (APP_ONLY.test(pathname)) return send(request, reply, pages.appOnly(pathname));
      // An unknown path may be a screen the app has and this list lacks: the app decides at once.
      return send(request, reply, { ...pages.notFound(), release: 'start' });
    },
  };
}
