import type { FastifyReply, FastifyRequest } from 'fastify';
import { isNotModified, PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, weakEtag } from '../lib/etag';

/**
 * Sends a public document (feed, sitemap, robots.txt) with the headers the public response cache
 * stores (ETag, public cache-control; lib/public-cache.ts) plus Last-Modified, and answers a
 * conditional GET with 304 when the reader already has it.
 */
export function sendPublicDocument(
  request: FastifyRequest,
  reply: FastifyReply,
  document: { body: string; type: string; lastModified?: string },
): string {
  const etag = weakEtag(document.body);
  reply
    .type(document.type)
    .header('etag', etag)
    .header('vary', 'Accept-Encoding')
    .header('cache-control', request.headers.authorization ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL);
  const lastModified =
    document.lastModified && Date.parse(document.lastModified) > 0 ? new Date(document.lastModified).toUTCString() : undefined;
  if (lastModified) reply.header('last-modified', lastModified);
  if (isNotModified(request.headers, etag, lastModified)) {
    reply.code(304);
    return '';
  }
  return document.body;
}
