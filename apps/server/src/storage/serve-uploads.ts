import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { LocalDiskStorage } from './local-disk';
import type { Storage } from './storage';

/**
 * Serves local-disk uploads at /uploads/. Keys are random and never rewritten, so files
 * are cached forever. The CSP and nosniff keep a file from ever running as a page even if
 * a browser is tricked into opening it directly. Object stores serve their own files.
 */
export async function registerUploadServing(app: FastifyInstance, storage: Storage): Promise<void> {
  if (!(storage instanceof LocalDiskStorage)) return;
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
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
    },
  });
}
