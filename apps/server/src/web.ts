import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app: hashed assets cached forever, index.html for every
 * client-side route (SPA fallback), never for /api or /uploads.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<boolean> {
  if (!distDir || !existsSync(path.join(distDir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    wildcard: true,
    // '/' itself is a client route: the app's index.html.
    index: ['index.html'],
    setHeaders(res, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.header('cache-control', 'public, max-age=31536000, immutable');
      } else {
        res.header('cache-control', 'public, max-age=0, must-revalidate');
      }
    },
  });
  return true;
}

export function isClientRoute(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const pathname = url.split('?')[0] ?? '/';
  return (
    !pathname.startsWith('/api/') &&
    !pathname.startsWith('/uploads/') &&
    !pathname.startsWith('/socket.io') &&
    !/\.[a-z0-9]{2,5}$/i.test(pathname)
  );
}
