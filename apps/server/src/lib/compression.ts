import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

export type Encoding = 'br' | 'gzip' | 'identity';

/** Bodies below this stay uncompressed (as @fastify/compress does). */
export const COMPRESS_THRESHOLD = 1024;
/**
 * Bodies up to this size are compressed at once, on the event loop (about 50 µs for a page of
 * JSON, 1 ms at the cap). @fastify/compress pipes every body through a zlib stream on the thread
 * pool, which cost 400–700 µs of main-thread CPU per response, mostly setting the stream up:
 * more than computing most answers. Larger bodies and streams still go that way.
 */
const SYNC_LIMIT = 64 * 1024;
/** As @fastify/compress decides what is worth compressing. */
const COMPRESSIBLE = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)/u;

/**
 * Brotli quality 2 rather than @fastify/compress's 4: a page changes with every like or comment and
 * is compressed again for its next reader. On the live site's pages (4.5 KB on average) quality 4
 * took 154 µs and quality 2 52 µs, for 23.0 % and 24.4 % of the size (docs/performance.md, 2026-11-27).
 */
const BROTLI_QUALITY = 2;
/**
 * Gzip level 1 rather than zlib's 6, for the same reason: clients that do not send `br` (fetch and
 * curl over plain HTTP, feed readers) got gzip 6 for every changed page. On the live site's pages
 * and comment lists (5.1 KB on average) level 6 took 59–85 µs and level 1 42 µs, for 25.8 % and
 * 27.3 % of the size (docs/performance.md, 2026-11-27, fifth session).
 */
const GZIP_LEVEL = 1;

/**
 * Brotli (BROTLI_QUALITY) or gzip (GZIP_LEVEL), with the window sized to the body: brotli's default
 * 4 MB window was set up anew for every body and took most of the time (85 → 35 µs for 4 KB).
 */
export function compressBody(identity: Buffer, encoding: Encoding): Buffer {
  const windowBits = Math.ceil(Math.log2(Math.max(identity.length, 1)));
  if (encoding === 'br') {
    return brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_LGWIN]: Math.min(Math.max(windowBits, constants.BROTLI_MIN_WINDOW_BITS), constants.BROTLI_MAX_WINDOW_BITS),
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    });
  }
  if (encoding === 'gzip') return gzipSync(identity, { level: GZIP_LEVEL, windowBits: Math.min(Math.max(windowBits, 9), 15) });
  return identity;
}

// An encoding named in Accept-Encoding and not refused with q=0.
const ACCEPTS_BR = /(^|[\s,])br(?![^,]*;\s*q=0(\.0*)?\s*(,|$))/i;
const ACCEPTS_GZIP = /(^|[\s,])gzip(?![^,]*;\s*q=0(\.0*)?\s*(,|$))/i;

export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  if (ACCEPTS_BR.test(acceptEncoding)) return 'br';
  if (ACCEPTS_GZIP.test(acceptEncoding)) return 'gzip';
  return 'identity';
}

/** Adds accept-encoding to Vary, once. */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (typeof vary === 'string' && vary !== '*' && !/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary))
    reply.header('vary', `${vary}, accept-encoding`);
}

/** Compresses a small text or Buffer answer in place; anything else is left to @fastify/compress. */
function compressSmall(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  const size = Buffer.byteLength(payload);
  if (size < COMPRESS_THRESHOLD || size > SYNC_LIMIT || request.headers['x-no-compression'] !== undefined) return done(null, payload);
  const encodingSet = reply.getHeader('content-encoding');
  if (encodingSet !== undefined && encodingSet !== 'identity') return done(null, payload);
  const type = reply.getHeader('content-type');
  if (!COMPRESSIBLE.test(typeof type === 'string' ? type : 'application/json')) return done(null, payload);
  const encoding = pickEncoding(request.headers['accept-encoding']);
  if (encoding === 'identity') return done(null, payload); // @fastify/compress still answers '*' and the like
  const body = compressBody(typeof payload === 'string' ? Buffer.from(payload) : payload, encoding);
  varyOnEncoding(reply);
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  done(null, body);
}

/**
 * Response compression: small bodies at once (compressSmall), the rest by @fastify/compress.
 * Both are route-level onSend hooks added when each route is made, so they run after every
 * application-level onSend hook and after any route-level hook registered before this.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route: RouteOptions) => {
    const onSend = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...onSend, compressSmall] as RouteOptions['onSend'];
  });
  await app.register(compress, { threshold: COMPRESS_THRESHOLD, encodings: ['br', 'gzip'] });
}
