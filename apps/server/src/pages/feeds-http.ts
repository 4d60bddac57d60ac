import type { FastifyReply, FastifyRequest } from 'fastify';
import { isNotModified, PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, weakEtag } from '../lib/etag';

/**
 * Sends a public document (feed, sitemap, robots.txt) with the headers the public response cache
 * stores (ETag, public cache-control; lib/public-cache.ts), and answers a conditional GET with 304
 * when the reader already has it. No Last-Modified: the newest item's date does not move when a
 * post leaves a feed (deleted, hidden, a draft again) or its author is renamed, so
 * If-Modified-Since got 304 for a changed document; the ETag is the body's own.
 */
export function sendPublicDocument(request: FastifyRequest, reply: FastifyReply, document: { body: string; type: string }): string {
  const etag = weakEtag(document.body);
  reply
    .type(document.type)
    .header('etag', etag)
    .header('vary', 'Accept-Encoding')
    .header('cache-control', request.headers.authorization ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL);
  if (isNotModified(request.headers, etag)) {
    reply.code(304);
    return '';
  }
  return document.body;
}
