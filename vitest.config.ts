import { defineConfig } from 'vitest/config';

/**
 * Unit tests for core and web rules, and the server's integration suite on SQLite.
 * With TEST_DATABASE_URL set, the same server suite runs again on PostgreSQL.
 */
const serverProject = (engine: 'sqlite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `server-${engine}`,
    include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
    environment: 'node',
    env: { TEST_ENGINE: engine },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'core', include: ['packages/core/src/**/*.test.ts'], environment: 'node' } },
      { extends: true, test: { name: 'web', include: ['apps/web/src/**/*.test.ts'], environment: 'node' } },
      serverProject('sqlite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
    ],
  },
});
