// Bundles the server (and @inkwell/core source) into dist/main.js; node_modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  // @inkwell/core is TypeScript source inside the workspace: bundle it rather than import it at run time.
  plugins: [
    {
      name: 'bundle-workspace-core',
      setup(b) {
        b.onResolve({ filter: /^@inkwell\/core$/ }, () => ({
          path: new URL('../../packages/core/src/index.ts', import.meta.url).pathname,
        }));
        // The Markdown entry point (packages/core/src/markdown), kept out of the main index.
        b.onResolve({ filter: /^@inkwell\/core\/markdown$/ }, () => ({
          path: new URL('../../packages/core/src/markdown/index.ts', import.meta.url).pathname,
        }));
      },
    },
  ],
  logLevel: 'warning',
});
console.log('server built: apps/server/dist/main.js');
