import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { WriteSignal } from '../db/write-watch';
import { type CachedResponse, ResponseCache } from './response-cache';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's anonymous GET answer depends only on its URL and public data: cache it. */
    publicCache?: boolean;
  }
}

/** Writes to these tables never change what an anonymous reader sees. */
const PRIVATE_TABLES = new Set(['notifications', 'mail_outbox', 'email_verifications', 'transfer_requests', 'uploads']);

/** Headers that belong to one response, not to the cached one. */
const PER_RESPONSE = new Set(['x-request-id', 'content-length', 'content-encoding', 'set-cookie']);

const kGeneration = Symbol('publicCacheGeneration');
type CacheableRequest = FastifyRequest & { [kGeneration]?: number };

export interface PublicCacheOptions {
  writes: WriteSignal;
  /** Set when several instances share the data: invalidations travel over pub/sub. */
  redis?: Redis;
  channel: string;
  /** With CORS on, answers vary by Origin, so requests carrying one skip the cache. */
  corsEnabled: boolean;
  log: FastifyBaseLogger;
}

export interface PublicCache {
  cache: ResponseCache;
  /** Adds the hook that stores responses; call it right after the ETag hook is registered. */
  captureResponses(): void;
}

/**
 * Anonymous reads of feed, blog, search, tag and profile pages are answered from memory before
 * any other hook runs (no auth, validation, database or serialization), with the same headers
 * the full path produced. Register it before the other plugins so its onRequest runs first.
 */
export function registerPublicCache(app: FastifyInstance, options: PublicCacheOptions): PublicCache {
  const cache = new ResponseCache();
  const instance = randomUUID();
  const subscriber = options.redis?.duplicate();
  let publishScheduled = false;

  options.writes.on((tables) => {
    for (const t of tables) {
      if (PRIVATE_TABLES.has(t)) continue;
      cache.invalidate();
      if (options.redis && !publishScheduled) {
        // One message per event-loop turn however many statements committed in it.
        publishScheduled = true;
        setImmediate(() => {
          publishScheduled = false;
          options.redis!.publish(options.channel, instance).catch((err) => options.log.warn({ err }, 'cache invalidation publish failed'));
        });
      }
      return;
    }
  });
  if (subscriber) {
    subscriber.on('error', (err) => options.log.warn({ err }, 'cache invalidation subscriber error'));
    // Messages missed while disconnected are unknowable: start over on every (re)connect.
    subscriber.on('ready', () => cache.invalidate());
    subscriber.on('message', (_channel, from) => {
      if (from !== instance) cache.invalidate();
    });
    void subscriber.subscribe(options.channel).catch((err) => options.log.warn({ err }, 'cache invalidation subscribe failed'));
    app.addHook('onClose', async () => subscriber.disconnect());
  }

  app.addHook('onRequest', (request: CacheableRequest, reply, done) => {
    if (
      request.method !== 'GET' ||
      request.routeOptions.config.publicCache !== true ||
      request.headers.authorization !== undefined ||
      (options.corsEnabled && request.headers.origin !== undefined)
    ) {
      return done();
    }
    const entry = cache.get(request.url);
    if (!entry) {
      request[kGeneration] = cache.generation;
      return done();
    }
    sendCached(cache, entry, request, reply);
  });

  // Runs after the ETag hook (which sets etag, vary and cache-control) and before compression.
  const capture = (request: CacheableRequest, reply: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) => {
    const generation = request[kGeneration];
    if (generation === undefined || reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
    const cacheControl = String(reply.getHeader('cache-control') ?? '');
    const etag = reply.getHeader('etag');
    if (!cacheControl.startsWith('public') || typeof etag !== 'string' || reply.hasHeader('set-cookie')) return done(null, payload);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && !PER_RESPONSE.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    cache.set(request.url, generation, { headers, etag, body: payload });
    done(null, payload);
  };

  return { cache, captureResponses: () => app.addHook('onSend', capture) };
}

function sendCached(cache: ResponseCache, entry: CachedResponse, request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  const res = reply.raw;
  if (request.headers['if-none-match'] === entry.etag) {
    res.writeHead(304, { ...entry.headers, 'x-request-id': request.id });
    res.end();
    return;
  }
  const { encoding, body } = cache.body(entry, request.headers['accept-encoding']);
  const headers: Record<string, string | number> = { ...entry.headers, 'x-request-id': request.id, 'content-length': body.length };
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  res.writeHead(200, headers);
  res.end(body);
}
