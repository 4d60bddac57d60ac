import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFoundBody } from '../lib/error-handler';
import { LocalDiskStorage } from './local-disk';
import { STORAGE_KEY_PATTERN, type Storage } from './storage';

/** Keys are random and never rewritten, so files are cached forever. */
const UPLOAD_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  // Keeps a file from ever running as a page even if a browser is tricked into opening it directly.
  'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
} as const;

/**
 * Serves uploads at /uploads/ when browsers load them through the app: local disk (by
 * @fastify/static) or an object store without a public URL (streamed from the bucket).
 * A store with a public URL (bucket domain, CDN) serves its own files.
 */
export async function registerUploadServing(app: FastifyInstance, storage: Storage): Promise<void> {
  if (!storage.servedByApp) return;
  if (storage instanceof LocalDiskStorage) {
    await app.register(fastifyStatic, {
      root: storage.root,
      prefix: '/uploads/',
      // web.ts registers @fastify/static too and owns reply.sendFile.
      decorateReply: false,
      index: false,
      list: false,
      serveDotFiles: false,
      cacheControl: false,
      setHeaders(reply) {
        reply.headers(UPLOAD_HEADERS);
      },
    });
    return;
  }

  app.get('/uploads/*', async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    if (!STORAGE_KEY_PATTERN.test(key)) return reply.status(404).send(notFoundBody(request.method, request.url));
    // An object never changes under its key, so its key is its version.
    const etag = `"${key.replace(/[^a-z0-9]/g, '')}"`;
    if (request.headers['if-none-match'] === etag) return reply.headers(UPLOAD_HEADERS).header('etag', etag).status(304).send();
    const object = await storage.get(key);
    if (!object) return reply.status(404).send(notFoundBody(request.method, request.url));
    reply.headers(UPLOAD_HEADERS).header('etag', etag).type(object.contentType);
    if (object.contentLength !== undefined) reply.header('content-length', object.contentLength);
    return reply.send(object.body);
  });
}
