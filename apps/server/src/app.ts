import { randomUUID } from 'node:crypto';
import path from 'node:path';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import { EMBED_ORIGINS } from '@inkwell/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { createDatabase, type DatabaseHandle } from './db/database';
import { migrateToLatest } from './db/migrate';
import { authGuardPlugin } from './lib/auth-guard';
import { notFoundBody, registerErrorHandler } from './lib/error-handler';
import { registerEtags } from './lib/etag';
import { registerPublicCache } from './lib/public-cache';
import type { ResponseCache } from './lib/response-cache';
import { registerSecurityHeaders } from './lib/security-headers';
import { authRoutes } from './modules/auth/auth.routes';
import { googleAuthRoutes } from './modules/auth/google.routes';
import { blogsRoutes } from './modules/blogs/blogs.routes';
import { reactionsRoutes } from './modules/blogs/reactions.routes';
import { commentsRoutes } from './modules/comments/comments.routes';
import { followsRoutes } from './modules/follows/follows.routes';
import { healthRoutes } from './modules/health/health.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { transferRoutes } from './modules/transfer/transfer.routes';
import { multipartOptions } from './modules/uploads/multipart';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { accountRoutes } from './modules/users/account.routes';
import { usersRoutes } from './modules/users/users.routes';
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
}

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

/** Builds the whole application without listening; main.ts and tests call this. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
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
  app.addHook('onClose', async () => {
    await services.close();
    if (!options.database) await database.destroy();
  });
  // First onRequest hook: a cached anonymous read skips every other hook.
  const publicCache = config.responseCache
    ? registerPublicCache(app, { changes: services.publicData, corsEnabled: config.corsOrigins.length > 0 })
    : undefined;
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  registerSecurityHeaders(app, CONTENT_SECURITY_POLICY);
  await app.register(cors, {
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    credentials: false,
    methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
  });
  registerEtags(app);
  publicCache?.captureResponses();
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(authGuardPlugin, { tokens: services.tokens, users: services.repos.users });
  await app.register(multipart, multipartOptions(config.uploadMaxBytes));
  await registerUploadServing(app, services.storage);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(googleAuthRoutes);
      await api.register(uploadsRoutes);
      await api.register(blogsRoutes);
      await api.register(usersRoutes);
      await api.register(accountRoutes);
      await api.register(transferRoutes);
      await api.register(reactionsRoutes);
      await api.register(followsRoutes);
      await api.register(commentsRoutes);
      await api.register(notificationsRoutes);
    },
    { prefix: '/api/v1' },
  );

  const serving = await registerWebApp(app, config.webDistDir);
  app.setNotFoundHandler((request, reply) => {
    if (serving && isClientRoute(request.method, request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(notFoundBody(request.method, request.url));
  });

  const realtime = createRealtime(app, {
    tokens: services.tokens,
    users: services.repos.users,
    redis: services.redis,
    redisPrefix: config.redisPrefix,
  });
  services.notifications.attachPush(realtime);
  services.sessions.onRevoked((userId) => realtime.disconnectUser(userId));
  app.decorate('realtime', realtime);
  app.decorate('publicCache', publicCache?.cache);
  app.addHook('preClose', async () => realtime.close());

  if (config.mailWorker) services.mail.start();
  return app;
}
