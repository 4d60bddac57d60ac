import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', async (_request, reply) => {
    const { database } = app.services;
    const started = performance.now();
    try {
      await sql`select 1`.execute(database.db);
      return {
        success: true,
        status: 'ok',
        database: { engine: database.engine, reachable: true, latencyMs: Math.round(performance.now() - started) },
      };
    } catch {
      return reply.status(503).send({
        success: false,
        status: 'degraded',
        message: 'Database unreachable',
        database: { engine: database.engine, reachable: false },
      });
    }
  });
};
