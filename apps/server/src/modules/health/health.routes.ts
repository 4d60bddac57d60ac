import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';

/** A dependency that does not answer within this is reported down (a probe must never hang). */
const CHECK_TIMEOUT_MS = 2000;

interface CheckResult {
  reachable: boolean;
  latencyMs?: number;
  error?: string;
}

async function timed(check: () => Promise<unknown>): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { reachable: true, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    // Names the failure (timeout, refused, access denied) without internals such as hosts or keys.
    const e = err as { name?: string; code?: string; message?: string };
    const reason = e.message?.startsWith('no answer within') ? e.message : (e.code ?? e.name ?? 'Error');
    return { reachable: false, error: reason };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for load balancers and orchestrators (docs/operations.md):
 * - /health/live: the process answers; restart it when this fails.
 * - /health/ready: the database and, when configured, Redis and file storage answer;
 *   send it traffic only while this is 200.
 * - /health: the original combined answer (database only), kept for existing callers.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, redis, storage, config } = app.services;
  const checkDatabase = () => timed(() => sql`select 1`.execute(database.db));

  app.get('/health', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const db = await checkDatabase();
    if (db.reachable) {
      return { success: true, status: 'ok', database: { engine: database.engine, reachable: true, latencyMs: db.latencyMs } };
    }
    return reply.status(503).send({
      success: false,
      status: 'degraded',
      message: 'Database unreachable',
      database: { engine: database.engine, reachable: false },
    });
  });

  app.get('/health/live', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { success: true, status: 'ok' };
  });

  app.get('/health/ready', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const [db, cache, files] = await Promise.all([
      checkDatabase(),
      redis ? timed(() => redis.ping()) : undefined,
      timed(() => storage.check()),
    ]);
    const checks = {
      database: { engine: database.engine, ...db },
      ...(cache ? { redis: cache } : {}),
      storage: { kind: config.storage.kind, ...files },
    };
    const down = Object.entries(checks)
      .filter(([, c]) => !c.reachable)
      .map(([name]) => name);
    if (!down.length) return { success: true, status: 'ready', checks };
    return reply.status(503).send({ success: false, status: 'not ready', message: `Unreachable: ${down.join(', ')}`, checks });
  });
};
