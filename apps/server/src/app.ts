import { randomUUID } from 'node:crypto';
import path from 'node:path';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import { EMBED_ORIGINS } from '@inkwell/core';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { createDatabase, type DatabaseHandle } from './db/database';
import { migrateToLatest } from './db/migrate';
import { authGuardPlugin } from './lib/auth-guard';
import { notFoundBody, registerErrorHandler } from './lib/error-handler';
import { registerInputGuard } from './lib/input-guard';
import { type LogStream, loggerOptions } from './lib/logger';
import { registerPublicResponses } from './lib/public-cache';
import { registerRateLimits } from './lib/rate-limit-hook';
import type { ResponseCache } from './lib/response-cache';
import { registerSecurityHeaders, securityHeaders } from './lib/security-headers';
import { authRoutes } from './modules/auth/auth.routes';
import { googleAuthRoutes } from './modules/auth/google.routes';
import { blockingRoutes } from './modules/blocking/blocking.routes';
import { blogsRoutes } from './modules/blogs/blogs.routes';
import { reactionsRoutes } from './modules/blogs/reactions.routes';
import { commentsRoutes } from './modules/comments/comments.routes';
import { exportRoutes } from './modules/export/export.routes';
import { followsRoutes } from './modules/follows/follows.routes';
import { healthRoutes } from './modules/health/health.routes';
import { registerMetrics } from './modules/health/metrics';
import { moderationRoutes } from './modules/moderation/moderation.routes';
import { newsletterRoutes } from './modules/newsletter/newsletter.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { revisionsRoutes } from './modules/revisions/revisions.routes';
import { searchRoutes } from './modules/search/search.routes';
import { seriesRoutes } from './modules/series/series.routes';
import { transferRoutes } from './modules/transfer/transfer.routes';
import { multipartOptions } from './modules/uploads/multipart';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { accountRoutes } from './modules/users/account.routes';
import { usersRoutes } from './modules/users/users.routes';
import { registerOpenApi } from './openapi/openapi';
import { feedsRoutes } from './pages/feeds.routes';
import { registerPages } from './pages/pages.routes';
import { robotsRoutes } from './pages/robots';
import { sitemapRoutes } from './pages/sitemap.routes';
import { createRealtime, type Realtime } from './realtime/realtime';
import { createServices } from './services';
import { registerUploadServing } from './storage/serve-uploads';
import { isClientRoute, registerWebApp } from './web';

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
    publicCache?: ResponseCache;
  }
}

export interface BuildOptions {
  /** An already-open database (tests); otherwise one is opened from config. */
  database?: DatabaseHandle;
  /** Run pending migrations before serving (default true). */
  migrate?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: LogStream;
  /** Called for every route as it is registered (tests list them). */
  onRoute?: (route: RouteOptions) => void;
}

export const API_PREFIX = '/api/v1';

/** A request whose address cannot be read (see buildApp's frameworkErrors). */
const UNREADABLE_ADDRESS = { success: false as const, message: 'The address is not valid: bad percent-encoding or a part too long' };

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Editor.js and the toast library set inline style attributes; scripts stay strict.
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Image blocks may point at https images elsewhere; uploads are ours.
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'ws:', 'wss:'],
  frameSrc: EMBED_ORIGINS,
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/** https: images are allowed anyway; a bucket served over plain http (local MinIO) is added by origin. */
function cspFor(config: Config) {
  const filesUrl = config.storage.kind === 's3' ? config.storage.publicUrl : undefined;
  if (!filesUrl?.startsWith('http:')) return CONTENT_SECURITY_POLICY;
  return { ...CONTENT_SECURITY_POLICY, imgSrc: [...CONTENT_SECURITY_POLICY.imgSrc, new URL(filesUrl).origin] };
}

/** Builds the whole application without listening; main.ts and tests call this. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // An address the router cannot read (bad percent-encoding: /blog/%FF) or a path part past its
  // length is answered by Fastify before any hook: without this, in its own JSON, without our
  // security headers or request id, and a reader got that JSON instead of the 404 page.
  let answerUnreadableAddress = (_request: FastifyRequest, reply: FastifyReply): unknown => reply.code(400).send(UNREADABLE_ADDRESS);
  const app = Fastify({
    frameworkErrors: (_error, request, reply) => answerUnreadableAddress(request, reply),
    logger: loggerOptions(config, options.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    genReqId: (req) =>
      typeof req.headers['x-request-id'] === 'string' && req.headers['x-request-id'].length <= 64
        ? req.headers['x-request-id']
        : randomUUID(),
    requestIdHeader: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerInputGuard(app);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  const database =
    options.database ??
    createDatabase({
      databaseUrl: config.databaseUrl,
      sqliteFile: path.join(config.dataDir, 'inkwell.sqlite'),
      backgroundCheckpoints: true,
    });
  if (options.migrate !== false) await migrateToLatest(database.db, database.pgSchema);
  const services = createServices(config, database, app.log);
  app.decorate('services', services);
  // Before any route: every API write route must name its rate limit (see lib/rate-limit-hook.ts).
  registerRateLimits(app, services.rate, API_PREFIX, async (userId) => {
    const state = await services.repos.users.findAuthState(userId);
    return state && { createdAt: state.created_at, publishedCount: state.published_count };
  });
  app.addHook('onClose', async () => {
    await services.close();
    if (!options.database) await database.destroy();
  });
  // First onRequest hook: a cached anonymous read skips every other hook. It also registers the
  // ETag and compression hooks, in the order the cache depends on.
  const publicCache = await registerPublicResponses(app, {
    changes: config.responseCache ? services.publicData : undefined,
    corsEnabled: config.corsOrigins.length > 0,
    ttlMs: config.responseCacheTtlMs,
    countsLagMs: config.responseCacheCountsLagMs,
    counts: services.liveCounts,
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  // A write is answered once its change is on its way to the other instances (or Redis is
  // unreachable), so its writer's next request anywhere sees it: public copies dropped
  // (PublicDataChanges.published), a revoked token refused (SessionEvents.published).
  // Callback style: reads pass straight through, without a promise each.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done(null, payload);
    Promise.all([config.responseCache ? services.publicData.published() : undefined, services.sessions.published()]).then(
      () => done(null, payload),
      () => done(null, payload),
    );
  });

  registerSecurityHeaders(app, cspFor(config));
  await registerMetrics(app);
  await app.register(cors, {
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    credentials: false,
    methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
  });
  await app.register(authGuardPlugin, { tokens: services.tokens, users: services.repos.users, authStates: services.authStates });
  // Before the routes: the OpenAPI document is built from each route as it is added.
  await registerOpenApi(app, config.publicUrl, cspFor(config));
  await app.register(multipart, multipartOptions(config.uploadMaxBytes));
  await registerUploadServing(app, services.storage);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(googleAuthRoutes);
      await api.register(uploadsRoutes);
      await api.register(blogsRoutes);
      await api.register(exportRoutes);
      await api.register(searchRoutes);
      await api.register(revisionsRoutes);
      await api.register(seriesRoutes);
      await api.register(usersRoutes);
      await api.register(accountRoutes);
      await api.register(transferRoutes);
      await api.register(reactionsRoutes);
      await api.register(followsRoutes);
      await api.register(blockingRoutes);
      await api.register(moderationRoutes);
      await api.register(commentsRoutes);
      await api.register(notificationsRoutes);
      await api.register(newsletterRoutes);
    },
    { prefix: API_PREFIX },
  );
  // The open web (issue 13): feeds, sitemaps and robots.txt, outside the API and the SPA's routes.
  await app.register(feedsRoutes);
  await app.register(sitemapRoutes);
  await app.register(robotsRoutes);

  const serving = await registerWebApp(app, config.webDistDir);
  // Public pages with their own head and first HTML; every other client path is the app or a 404 page.
  const pages = serving && config.webDistDir ? registerPages(app, config.webDistDir) : undefined;
  app.setNotFoundHandler((request, reply) => {
    if (pages && isClientRoute(request.method, request.url)) return pages.notFound(request, reply);
    return reply.status(404).send(notFoundBody(request.method, request.url));
  });
  const headers = securityHeaders(cspFor(config));
  answerUnreadableAddress = (request, reply) => {
    reply.headers(headers).header('x-request-id', request.id);
    if (pages && isClientRoute(request.method, request.url)) return pages.notFound(request, reply);
    return reply.code(400).send(UNREADABLE_ADDRESS);
  };

  const realtime = createRealtime(app, {
    tokens: services.tokens,
    users: services.repos.users,
    redis: services.redis,
    redisPrefix: config.redisPrefix,
    recheckMs: config.realtimeRecheckMs,
  });
  services.notifications.attachPush(realtime, (err) => app.log.warn({ err }, 'notification push failed'));
  services.sessions.onRevoked((userId) => realtime.disconnectUser(userId));
  app.decorate('realtime', realtime);
  app.decorate('publicCache', publicCache);
  app.addHook('preClose', async () => realtime.close());

  if (config.mailWorker) services.mail.start();
  if (config.backgroundJobs) services.scheduler.start();
  return app;
}
