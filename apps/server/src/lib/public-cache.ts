import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { viewerWasRead } from './auth-guard';
import { registerCompression } from './compression';
import { isNotModified, PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, registerEtags, weakEtag } from './etag';
import { CountsMemo, type LiveCounts } from './live-counts';
import type { PublicDataChanges } from './public-data';
import { type CachedResponse, type CachePatch, ResponseCache } from './response-cache';
import { ANY_CHANGE } from './tagged-store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's anonymous GET answer depends only on its URL and public data: cache it.
     * 'anyone': the route never reads the viewer, so signed-in requests get the same answer.
     */
    publicCache?: 'anonymous' | 'anyone';
    /** On an 'anonymous' route: turns the cached anonymous body into the signed-in viewer's one. */
    viewerOverlay?: ViewerOverlay;
    /**
     * What the answer shows, as tags writes touch (lib/public-tags.ts); body is what the handler
     * returned (undefined for a text answer). Without it, any public change drops the entry.
     */
    cacheTags?: (request: FastifyRequest, body: unknown) => readonly string[];
    /** The answer's counts are put in when served, so a change of them does not drop it (lib/live-counts.ts). */
    liveCounts?: LiveCounts;
    /** Takes a row a write on this instance added into the cached answer instead of dropping it. */
    cachePatch?: CachePatch;
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
const kBody = Symbol('publicCacheBody');
const kLanded = Symbol('publicCacheLanded');
const kStore = Symbol('publicCacheStore');
const kEpoch = Symbol('publicCacheCountsEpoch');
type CacheableRequest = FastifyRequest & {
  [kGeneration]?: number;
  [kEpoch]?: number;
  [kBody]?: unknown;
  [kLanded]?: () => void;
  [kStore]?: boolean;
};

/** The cache and what it needs to put live counts in (lib/live-counts.ts). */
interface Cached {
  cache: ResponseCache;
  counts: CountsMemo;
  /** Remembered counts are trusted only while every instance's changes reach this one. */
  reliable: () => boolean;
}

/** How many refused computations of the same answer a miss waits through before computing its own. */
const MAX_WAITS = 3;

export interface PublicResponsesOptions {
  /** The change feed the cache follows; without it there is no cache (RESPONSE_CACHE=off). */
  changes?: PublicDataChanges;
  /** With CORS on, answers vary by Origin, so requests carrying one skip the cache. */
  corsEnabled: boolean;
  /** Longest life of an entry (ms), whatever the change feed says. */
  ttlMs?: number;
  /** How long a list page may show a post's previous counts (ms; lib/public-tags.ts countsTag). */
  countsLagMs?: number;
  /** The live counts the writes report to (services.ts); a memo of its own when absent. */
  counts?: CountsMemo;
}

/**
 * How public GET answers leave the server, in the one order the cache depends on: conditional
 * GETs (ETag), then the cache's capture, then compression. Registered here together, before any
 * route, so no hook added elsewhere can come between them: the capture and compression are
 * route-level onSend hooks, which run after every application and plugin onSend hook (each
 * header they set is in the cached answer), and the capture is added before compression.
 *
 * Anonymous reads of feed, blog, search, tag and profile pages are answered from memory before
 * any other hook runs (no auth, validation, database or serialization), with the same headers
 * the full path produced. Call it before any other plugin so its onRequest runs first.
 */
export async function registerPublicResponses(app: FastifyInstance, options: PublicResponsesOptions): Promise<ResponseCache | undefined> {
  const { changes } = options;
  const cache = changes ? new ResponseCache({ ttlMs: options.ttlMs, countsLagMs: options.countsLagMs }) : undefined;
  const cached = cache && { cache, counts: options.counts ?? new CountsMemo(), reliable: () => changes!.reliable };
  if (cached) {
    changes!.on((tags, added) => {
      cached.counts.drop(tags);
      cached.cache.touch(tags, added);
    });
    registerLookup(app, cached, options.corsEnabled);
  }
  registerEtags(app);
  if (cached) {
    const capture = captureHook(app, cached);
    const keepBody = (request: CacheableRequest, _reply: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) => {
      request[kBody] = payload;
      done(null, payload);
    };
    app.addHook('onRoute', (route: RouteOptions) => {
      if (!route.config?.publicCache) return;
      route.preSerialization = [...hooks(route.preSerialization), keepBody] as RouteOptions['preSerialization'];
      route.onSend = [...hooks(route.onSend), capture] as RouteOptions['onSend'];
    });
  }
  await registerCompression(app);
  return cache;
}

const hooks = <T>(h: T | T[] | undefined): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);

/** The first onRequest hook: a cached answer, a wait for the same answer being computed, or the full path. */
function registerLookup(app: FastifyInstance, cached: Cached, corsEnabled: boolean): void {
  const { cache } = cached;
  /** Answers being computed, by URL: concurrent misses wait for the one under way instead of computing it again. */
  const inflight = new Map<string, Promise<void>>();

  /** The full path, storing its answer; the first miss of a URL leads, and later ones wait for it. */
  const compute = (request: CacheableRequest, reply: FastifyReply, done: () => void) => {
    request[kStore] = true;
    const key = request.url;
    if (!inflight.has(key)) {
      let landed!: () => void;
      const flight = new Promise<void>((resolve) => {
        landed = resolve;
      });
      inflight.set(key, flight);
      // Stored, or not storable (an error, a 304, refused): either way the waiters go on.
      request[kLanded] = () => {
        if (inflight.get(key) === flight) inflight.delete(key);
        landed();
      };
      reply.raw.once('close', request[kLanded]);
    }
    done();
  };

  /**
   * A miss: wait for the computation under way, then answer from the cache. Its answer is refused
   * when a write it shows landed meanwhile; then the next computation is waited for (one at a time
   * per URL, however busy), a few times at most before computing anyway.
   */
  const missed = (request: CacheableRequest, reply: FastifyReply, done: () => void, signedIn: boolean, waits: number): void => {
    const flight = inflight.get(request.url);
    if (!flight || waits >= MAX_WAITS) {
      compute(request, reply, done);
      return;
    }
    void flight.then(() => {
      const landed = cache.get(request.url);
      if (landed) serve(landed, request, reply, done, signedIn);
      else missed(request, reply, done, signedIn, waits + 1);
    });
  };

  /** A cached answer with the counts of now; the full path when they cannot be put in. */
  const serve = (entry: CachedResponse, request: CacheableRequest, reply: FastifyReply, done: (err?: Error) => void, signedIn: boolean) => {
    const current = withLiveCounts(cached, entry, request);
    if (current === entry) return sendCached(cache, entry, request, reply, signedIn);
    Promise.resolve(current).then(
      (fresh) => (fresh ? sendCached(cache, fresh, request, reply, signedIn) : compute(request, reply, done)),
      (err) => done(err),
    );
  };

  app.addHook('onRequest', (request: CacheableRequest, reply, done) => {
    const mode = request.routeOptions.config.publicCache;
    if (mode === undefined || request.method !== 'GET' || (corsEnabled && request.headers.origin !== undefined)) return done();
    const signedIn = request.headers.authorization !== undefined;
    if (signedIn && mode === 'anonymous') {
      const overlay = request.routeOptions.config.viewerOverlay;
      const cachedEntry = overlay && cache.get(request.url);
      if (!cachedEntry) return done();
      Promise.resolve(withLiveCounts(cached, cachedEntry, request))
        .then(async (entry) => {
          const viewer = entry && (await personalized(app, request, overlay, entry));
          return entry && viewer ? sendPersonal(cache, entry, viewer, request, reply) : done();
        })
        .catch((err) => done(err));
      return;
    }
    const entry = cache.get(request.url);
    if (entry) return serve(entry, request, reply, done, signedIn);
    missed(request, reply, done, signedIn, 0);
  });

  // The generation is read right before the handler reads the data, not when the request came in:
  // a write landing while the request waited in line is then already in what it reads, and does
  // not get its answer refused (on a busy server that wait is most of a request's life).
  app.addHook('preHandler', (request: CacheableRequest, _reply, done) => {
    if (request[kStore]) {
      request[kGeneration] = cache.generation;
      request[kEpoch] = cached.counts.epoch;
    }
    done();
  });
}

/** Stores what the full path answered (route-level onSend: after every other header is set, before compression). */
function captureHook(app: FastifyInstance, { cache, counts: memo }: Cached) {
  return (request: CacheableRequest, reply: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) => {
    const generation = request[kGeneration];
    try {
      if (generation === undefined || reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
      const config = request.routeOptions.config;
      if (config.publicCache === 'anyone' && viewerWasRead(request)) {
        // A route said its answer is the same for everyone, yet it looked up the viewer: this
        // answer may be theirs alone, so it is never given to anyone else.
        app.log.warn({ url: request.url }, "public cache: an 'anyone' route read the viewer; answer not cached");
        return done(null, payload);
      }
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
      const tags = config.cacheTags?.(request, request[kBody]) ?? [ANY_CHANGE];
      const live = config.liveCounts;
      const counts = live?.seen(request[kBody]);
      if (live && counts !== undefined) memo.setIf(live.keyOf(request), counts, request[kEpoch]!);
      // The handler has read all it shows by now: a row written after this is surely not in it.
      const patch = config.cachePatch;
      cache.set(request.url, generation, { headers, etag, body: payload, counts, patch, readAt: patch && performance.now() }, tags);
      done(null, payload);
    } finally {
      request[kLanded]?.();
    }
  };
}

/**
 * The entry with the counts of now, on a route that puts them in when served: the entry itself
 * while they are the ones it shows (no await), else a copy with the counts read again, stored for
 * the next reader with the same TTL; undefined when the full path must answer (the post is gone).
 */
function withLiveCounts(
  { cache, counts: memo, reliable }: Cached,
  entry: CachedResponse,
  request: FastifyRequest,
): CachedResponse | Promise<CachedResponse | undefined> {
  const live = request.routeOptions.config.liveCounts;
  if (!live) return entry;
  const key = live.keyOf(request);
  const known = reliable() ? memo.get(key) : undefined;
  if (known !== undefined && known === entry.counts) return entry;
  return (async () => {
    const epoch = memo.epoch;
    const generation = cache.generation;
    const counts = known ?? (await memo.readOnce(key, epoch, () => live.read(request)));
    if (counts === undefined) return undefined;
    if (known === undefined) memo.setIf(key, counts, epoch);
    if (counts === entry.counts) return entry;
    const text = live.apply(entry.text, counts);
    if (text === undefined) return undefined;
    const etag = weakEtag(text);
    const headers = { ...entry.headers, etag };
    // Served from the stored copy when there is one, so the body compressed for this reader is kept for the next.
    const copy = { headers, etag, body: text, counts, patch: entry.patch, readAt: entry.readAt };
    const stored = cache.set(request.url, generation, copy, entry.tags, cache.expiresAt(request.url));
    return stored ?? { headers, etag, bodies: { identity: Buffer.from(text) }, text, tags: entry.tags, counts, gone: true };
  })();
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
