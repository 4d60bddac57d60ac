import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const requireHere = createRequire(import.meta.url);

/**
 * react-router's package exports only its development build (dev warnings included);
 * production builds use the production build it ships next to it.
 */
const reactRouterProduction = path.join(path.dirname(requireHere.resolve('react-router')), '../production/index.mjs');

const API_TARGET = process.env.INKWELL_API_URL ?? 'http://127.0.0.1:3000';

/** Dev and preview servers forward the API, uploaded files and the realtime socket to the server. */
const proxy = {
  '/api': { target: API_TARGET, changeOrigin: true },
  '/uploads': { target: API_TARGET, changeOrigin: true },
  '/socket.io': { target: API_TARGET, ws: true, changeOrigin: true },
};

/**
 * Libraries every first load needs, split by how often they change so browsers keep them cached
 * across app releases: React (+ zustand), the router, TanStack Query. sonner is named but only
 * loaded when idle or on the first toast; lazy pages (and later the editor and socket.io) are
 * left to the automatic split and stay off the first load.
 */
const VENDOR_CHUNKS: [string, RegExp][] = [
  ['react', /[\\/]node_modules[\\/](react|react-dom|preact|scheduler|zustand|use-sync-external-store)[\\/]/],
  ['router', /[\\/]node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/],
  ['query', /[\\/]node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/],
  ['sonner', /[\\/]node_modules[\\/]sonner[\\/]/],
];

/**
 * @editorjs/image finds the global object with `new Function("return this")()`, which a strict
 * CSP (no 'unsafe-eval') refuses and reports. globalThis is the same thing without eval.
 */
function noEvalForGlobalThis(): Plugin {
  return {
    name: 'inkwell-no-eval-global-this',
    transform(code, id) {
      if (!id.includes('@editorjs') || !code.includes('new Function("return this")()')) return null;
      return { code: code.replaceAll('new Function("return this")()', 'globalThis'), map: null };
    },
  };
}

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) next to every text file of the build, which the
 * server sends as they are (apps/server/src/web.ts, preCompressed): smaller than compressing on
 * each request at the fast settings a server can afford, and no CPU spent per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'inkwell-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
          const file = path.join(dir, entry.name);
          if (entry.isDirectory()) return entry.name === '.vite' ? [] : walk(file);
          return /\.(js|css|html|svg|json|txt)$/.test(entry.name) ? [file] : [];
        });
      for (const file of walk(outDir)) {
        if (statSync(file).size < 1024) continue;
        const body = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss(), noEvalForGlobalThis(), precompress()],
  resolve: {
    alias: [
      // The app is written against React's API; production runs it on Preact's compatible core,
      // about 58 KB gzipped smaller (see docs/decisions.md "Preact in production").
      ...(command === 'build'
        ? [
            { find: /^react-router$/, replacement: reactRouterProduction },
            { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
            { find: /^react-dom$/, replacement: 'preact/compat' },
            { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
            { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
            { find: /^react$/, replacement: 'preact/compat' },
          ]
        : []),
    ],
  },
  server: { port: 5173, proxy },
  preview: { proxy },
  build: {
    // Read by scripts/web-budget.mjs to know what each page loads first.
    manifest: true,
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    modulePreload: { polyfill: false },
    rollupOptions: {
      onwarn(warning, warn) {
        // zod (reached through @inkwell/core, then dropped) has comments Rollup cannot place.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/zod/')) return;
        // "use client" in lucide-react is meaningless in a client bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        manualChunks(id) {
          return VENDOR_CHUNKS.find(([, pattern]) => pattern.test(id))?.[0];
        },
      },
    },
  },
}));
