import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app: hashed assets cached forever, precompressed files when the browser
 * accepts them, index.html for every client-side route (SPA fallback, with `Link` preloads of the
 * route's page chunk), never for /api or /uploads.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<boolean> {
  if (!distDir || !existsSync(path.join(distDir, 'index.html'))) return false;
  const preloads = routePreloads(distDir);
  if (preloads.length) {
    // Added before the static routes and the SPA fallback so it applies to both.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
      const type = reply.getHeader('content-type');
      if (typeof type !== 'string' || !type.startsWith('text/html')) return payload;
      const pathname = request.url.split('?')[0] ?? '/';
      const link = preloads.find(([pattern]) => pattern.test(pathname))?.[1];
      if (link) reply.header('link', link);
      return payload;
    });
  }
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    wildcard: true,
    // '/' itself is a client route: the app's index.html.
    index: ['index.html'],
    // The build writes .br and .gz beside each text file (apps/web/vite.config.ts): sent as they
    // are when the browser accepts them, instead of compressing on every request.
    preCompressed: true,
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
  // A tag page is a client route even when the tag looks like a file name (/tag/node.js): the
  // page moves it to the canonical tag (/tag/nodejs).
  if (/^\/tag\/[^/]+\/?$/.test(pathname)) return true;
  return (
    !pathname.startsWith('/api/') &&
    !pathname.startsWith('/uploads/') &&
    !pathname.startsWith('/socket.io') &&
    !/\.[a-z0-9]{2,5}$/i.test(pathname)
  );
}

/**
 * Lazy screens the document can ask for at once (routes of apps/web/src/app/routes.tsx): without
 * a hint the browser finds a page's chunk only after the entry has run, one round trip later.
 */
const ROUTE_PAGES: [RegExp, string][] = [
  [/^\/$/, 'HomePage'],
  [/^\/blog\/[^/]+\/?$/, 'BlogPage'],
  [/^\/tag\/[^/]+\/?$/, 'TagPage'],
  [/^\/search\/?$/, 'SearchPage'],
  [/^\/@[^/]+(\/[^/]+)?\/?$/, 'ProfilePage'],
];

interface ManifestChunk {
  file: string;
  name?: string;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/**
 * `Link: rel=modulepreload` values per route, from the Vite manifest: the page's chunk and its
 * static imports that index.html does not already load. None when the build has no manifest.
 */
export function routePreloads(distDir: string): [RegExp, string][] {
  const file = path.join(distDir, '.vite/manifest.json');
  if (!existsSync(file)) return [];
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    return [];
  }
  const closure = (key: string, seen: Set<string>, out: ManifestChunk[]) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    out.push(chunk);
    for (const imported of chunk.imports ?? []) closure(imported, seen, out);
  };
  const initial = new Set<string>();
  closure('index.html', initial, []);
  const result: [RegExp, string][] = [];
  for (const [pattern, page] of ROUTE_PAGES) {
    const key = manifest[`src/pages/${page}.tsx`]
      ? `src/pages/${page}.tsx`
      : Object.keys(manifest).find((k) => manifest[k]?.name === page && manifest[k]?.isDynamicEntry);
    if (!key) continue;
    const chunks: ManifestChunk[] = [];
    closure(key, new Set(initial), chunks);
    const links = [
      ...chunks.map((c) => `</${c.file}>; rel=modulepreload`),
      ...chunks.flatMap((c) => c.css ?? []).map((css) => `</${css}>; rel=preload; as=style`),
    ];
    if (links.length) result.push([pattern, links.join(', ')]);
  }
  return result;
}
