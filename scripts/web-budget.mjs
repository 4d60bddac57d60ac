#!/usr/bin/env node
// Web budget: the gzipped bytes a browser loads first for `/` and `/blog/{id}`: the server's HTML
// of the page (a representative long post and a full first feed page, scripts/sample-pages.ts),
// the entry, its static imports and CSS, plus the page's lazy chunk and its static imports, from
// the Vite manifest of apps/web/dist. Fails when a page goes over the budget.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
// The first load of each page must stay within 100 KB gzipped (issue: performance at scale).
const BUDGET_KB = { '/': 100, '/blog/{id}': 100 };

function closure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) closure(imported, files);
  return files;
}

const gz = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
// The server sends pages gzipped at level 6 (@fastify/compress and lib/response-cache.ts).
const serverHtml = JSON.parse(
  execFileSync(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, 'sample-pages.ts')], { encoding: 'utf8' }),
);
const pages = { '/': 'HomePage', '/blog/{id}': 'BlogPage' };
/** A page's lazy chunk, by its source path or, when Rollup renamed the key, by its chunk name. */
const pageKey = (name) =>
  manifest[`src/pages/${name}.tsx`]
    ? `src/pages/${name}.tsx`
    : Object.keys(manifest).find((k) => manifest[k].name === name && manifest[k].isDynamicEntry);
let failed = false;
for (const [route, page] of Object.entries(pages)) {
  const files = closure('index.html');
  const key = pageKey(page);
  if (!key) throw new Error(`no chunk for ${page} in the Vite manifest`);
  closure(key, files);
  const sizes = [...files].map((f) => [f, gz(f)]);
  const html = gzipSync(serverHtml[route], { level: 6 }).length;
  const total = sizes.reduce((n, [, s]) => n + s, html);
  const kb = total / 1024;
  console.log(
    `${route.padEnd(12)} ${kb.toFixed(1)} KB gzipped first load (${files.size} files + the server's HTML, ${(html / 1024).toFixed(1)} KB); budget ${BUDGET_KB[route]} KB`,
  );
  for (const [f, s] of sizes.sort((a, b) => b[1] - a[1])) console.log(`  ${(s / 1024).toFixed(1).padStart(6)} KB  ${f}`);
  if (kb > BUDGET_KB[route]) failed = true;
  const editor = [...files].some((f) => /createEditor|editorjs/i.test(f));
  if (editor) {
    console.log(`  the editor's code is loaded on ${route}`);
    failed = true;
  }
}
if (failed) {
  console.error('Web budget exceeded.');
  process.exit(1);
}
