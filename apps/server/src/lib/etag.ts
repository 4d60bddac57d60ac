import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Anonymous reads: shared caches may keep them but must revalidate. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
/** Signed-in reads carry the viewer's own flags. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/**
 * Conditional GETs for the API: a weak ETag from the JSON body, 304 when the client already has
 * it. Anonymous reads may be cached by shared caches for revalidation; signed-in reads carry the
 * viewer's own flags, so they stay private.
 */
export function registerEtags(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string' || !request.url.startsWith('/api/'))
      return payload;
    // An answer that must never be reused (the health probes) gets no validator, so never a 304.
    const cacheControl = reply.getHeader('cache-control');
    if (typeof cacheControl === 'string' && cacheControl.includes('no-store')) return payload;
    const etag = weakEtag(payload);
    reply.header('etag', etag);
    reply.header('vary', 'Authorization, Accept-Encoding');
    if (!reply.getHeader('cache-control')) {
      reply.header('cache-control', request.headers.authorization ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL);
    }
    if (isNotModified(request.headers, etag)) {
      reply.code(304);
      return '';
    }
    return payload;
  });
}

/** The weak ETag of a JSON body. */
export function weakEtag(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
}

const opaqueTag = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * A conditional GET the reader's copy satisfies: If-None-Match naming this ETag (or `*`), or,
 * only when no If-None-Match is sent (RFC 9110 13.2.2), If-Modified-Since not before Last-Modified.
 */
export function isNotModified(
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
  etag: string,
  lastModified?: string,
): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch === etag) return true;
    // Weak comparison (RFC 9110 13.1.2): the opaque tags alone, with or without W/.
    const opaque = opaqueTag(etag);
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaqueTag(tag.trim()) === opaque);
  }
  const since = headers['if-modified-since'];
  if (!since || !lastModified) return false;
  const sinceMs = Date.parse(since);
  return !Number.isNaN(sinceMs) && Date.parse(lastModified) <= sinceMs;
}
