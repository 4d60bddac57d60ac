import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isNotModified, PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from './etag';
import type { PublicDataChanges } from './public-data';
import { type CachedResponse, ResponseCache } from './response-cache';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's anonymous GET answer depends only on its URL and public data: cache it.
     * 'anyone': the route never reads the viewer, so signed-in requests get the same answer.
     */
    publicCache?: 'anonymous' | 'anyone';
    /** On an 'anonymous' route: turns the cached anonymous body into the signed-in viewer's one. */
    viewerOverlay?: ViewerOverlay;
  }
}

/** Headers that belong to one response, not to the cached one. */
const PER_RESPONSE = new Set(['x-request-id', 'content-length', 'content-encoding', 'set-cookie']);

/**
 * The viewer's body made from the anonymous one, with a short tag naming what differs (it
 * extends the anonymous ETag), or undefined to take the full path.
 */
export type ViewerOverlay = (
  request: FastifyRequest,
  viewerId: string,
  anonymousBody: string,
) => Promise<{ body: string; variant: string } | undefined>;

const kGeneration = Symbol('publicCacheGeneration');
type CacheableRequest = FastifyRequest & { [kGeneration]?: number };

export interface PublicCacheOptions {
  changes: PublicDataChanges;
  /** With CORS on, answers vary by Origin, so requests carrying one skip the cache. */
  corsEnabled: boolean;
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
  options.changes.on(() => cache.invalidate());

  app.addHook('onRequest', (request: CacheableRequest, reply, done) => {
    const mode = request.routeOptions.config.publicCache;
    if (mode === undefined || request.method !== 'GET' || (options.corsEnabled && request.headers.origin !== undefined)) return done();
    const signedIn = request.headers.authorization !== undefined;
    if (signedIn && mode === 'anonymous') {
      const overlay = request.routeOptions.config.viewerOverlay;
      const entry = overlay && cache.get(request.url);
      if (!entry) return done();
      personalized(app, request, overlay, entry).then(
        (viewer) => (viewer === undefined ? done() : sendPersonal(cache, entry, viewer, request, reply)),
        (err) => done(err),
      );
      return;
    }
    const entry = cache.get(request.url);
    if (entry) return sendCached(cache, entry, request, reply, signedIn);
    request[kGeneration] = cache.generation;
    done();
  });

  // Runs after the ETag hook (which sets etag, vary and cache-control) and before compression.
  const capture = (request: CacheableRequest, reply: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) => {
    const generation = request[kGeneration];
    if (generation === undefined || reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
    // A signed-in answer reaches here only on an 'anyone' route: stored as the anonymous one would be.
    const signedIn = request.headers.authorization !== undefined;
    const cacheControl = reply.getHeader('cache-control');
    const etag = reply.getHeader('etag');
    const expected = signedIn ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL;
    if (cacheControl !== expected || typeof etag !== 'string' || reply.hasHeader('set-cookie')) return done(null, payload);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && !PER_RESPONSE.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    headers['cache-control'] = PUBLIC_CACHE_CONTROL;
    cache.set(request.url, generation, { headers, etag, body: payload });
    done(null, payload);
  };

  return { cache, captureResponses: () => app.addHook('onSend', capture) };
}

function sendCached(cache: ResponseCache, entry: CachedResponse, request: FastifyRequest, reply: FastifyReply, signedIn: boolean): void {
  // As the ETag hook does: a signed-in answer is never stored by shared caches.
  const headers = { ...entry.headers, 'x-request-id': request.id, ...(signedIn ? { 'cache-control': PRIVATE_CACHE_CONTROL } : {}) };
  answer(request, reply, headers, entry.etag, () => cache.body(entry, request.headers['accept-encoding']));
}

/** The signed-in viewer's body from the cached anonymous one; undefined when the full path must answer. */
async function personalized(app: FastifyInstance, request: FastifyRequest, overlay: ViewerOverlay, entry: CachedResponse) {
  await app.identify(request);
  if (!request.user) return undefined; // an invalid token: the full path answers as it always does
  return overlay(request, request.user.id, entry.text);
}

/** What the full path sends a signed-in reader: its own ETag, private caching, the same other headers. */
function sendPersonal(
  cache: ResponseCache,
  entry: CachedResponse,
  viewer: { body: string; variant: string },
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  // The anonymous body's ETag plus the variant: a new value whenever either changes, no hashing.
  const etag = `${entry.etag.slice(0, -1)}-${viewer.variant}"`;
  const headers = { ...entry.headers, 'cache-control': PRIVATE_CACHE_CONTROL, etag, 'x-request-id': request.id };
  answer(request, reply, headers, etag, () => cache.encode(Buffer.from(viewer.body), request.headers['accept-encoding']));
}

/** Writes the answer past Fastify: 304 when the client has this ETag, else the body in its encoding. */
function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  headers: Record<string, string | number>,
  etag: string,
  encoded: () => { encoding: string; body: Buffer },
): void {
  reply.hijack();
  const res = reply.raw;
  if (isNotModified(request.headers, etag, typeof headers['last-modified'] === 'string' ? headers['last-modified'] : undefined)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const { encoding, body } = encoded();
  const sent: Record<string, string | number> = { ...headers, 'content-length': body.length };
  if (encoding !== 'identity') sent['content-encoding'] = encoding;
  res.writeHead(200, sent);
  res.end(body);
}
