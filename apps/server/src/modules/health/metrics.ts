import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /** The separate metrics listener (METRICS_PORT), when configured. */
    metricsServer?: Server;
  }
}

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The registry of this app instance (not prom-client's global one: tests run several apps). */
function createRegistry(app: FastifyInstance): {
  registry: Registry;
  observeRequest: (method: string, route: string, status: number, ms: number) => void;
} {
  const { database, scheduler, mail } = app.services;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  // One child per label set, found by a string key: labels() hashes its arguments on every call.
  const children = new Map<string, Histogram.Internal<'method' | 'route' | 'status_code'>>();
  const observeRequest = (method: string, route: string, status: number, ms: number) => {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = requests.labels(method, route, String(status));
      children.set(key, child);
    }
    child.observe(ms / 1000);
  };

  const cache = () => app.publicCache;
  const cacheCounter = (name: string, help: string, read: () => number | undefined) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read() ?? 0);
      },
    });
  cacheCounter('inkwell_public_cache_hits_total', 'Public response cache hits', () => cache()?.hits);
  cacheCounter('inkwell_public_cache_misses_total', 'Public response cache misses', () => cache()?.misses);
  cacheCounter(
    'inkwell_public_cache_invalidations_total',
    'Public response cache invalidations (a write to public data)',
    () => cache()?.invalidations,
  );
  cacheCounter(
    'inkwell_public_cache_updates_total',
    'Public response cache entries a write updated in place instead of dropping (a new comment on a cached first page)',
    () => cache()?.updates,
  );
  new Gauge({
    name: 'inkwell_public_cache_entries',
    help: 'Entries in the public response cache',
    registers: [registry],
    collect() {
      this.set(cache()?.size ?? 0);
    },
  });

  const queries = new Histogram({
    name: 'inkwell_db_query_duration_seconds',
    help: 'Database query duration',
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const stopQueries = database.queryTimes.on((ms) => queries.observe(ms / 1000));
  app.addHook('onClose', async () => stopQueries());
  new Gauge({
    name: 'inkwell_db_pool_connections',
    help: 'PostgreSQL pool connections by state (SQLite: none)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = database.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });

  new Gauge({
    name: 'inkwell_socket_connections',
    help: 'Open socket.io connections on this instance',
    registers: [registry],
    collect() {
      this.set(app.realtime?.io.engine.clientsCount ?? 0);
    },
  });
  new Gauge({
    name: 'inkwell_mail_outbox_pending',
    help: 'Mails in the outbox not sent yet (all instances)',
    registers: [registry],
    async collect() {
      this.set(await mail.pendingCount());
    },
  });

  const jobRuns = new Counter({
    name: 'inkwell_job_runs_total',
    help: 'Background job runs on this instance by outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobRemoved = new Counter({
    name: 'inkwell_job_removed_total',
    help: 'Rows or files removed by background jobs on this instance',
    labelNames: ['job', 'kind'] as const,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'inkwell_job_duration_seconds',
    help: 'Background job run duration',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.1, 1, 10, 60, 300],
    registers: [registry],
  });
  scheduler.onRun((job, outcome) => {
    jobRuns.inc({ job, outcome: outcome.ok ? 'ok' : 'error' });
    jobSeconds.observe({ job }, outcome.ms / 1000);
    if (outcome.ok) for (const [kind, n] of Object.entries(outcome.report)) jobRemoved.inc({ job, kind }, n);
  });

  return { registry, observeRequest };
}

/**
 * Prometheus metrics (prom-client), never public: off unless METRICS_TOKEN (served at /metrics
 * to that bearer token) or METRICS_PORT (a separate listener, for a private network) is set.
 * Off, it adds no hook at all. The public response cache never sees /metrics (it does not opt in).
 */
export async function registerMetrics(app: FastifyInstance): Promise<void> {
  const { token, port } = app.services.config.metrics;
  if (!token && port === undefined) return;
  const { registry, observeRequest } = createRegistry(app);

  app.addHook('onResponse', (request, reply, done) => {
    observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime);
    done();
  });

  if (token) {
    app.get('/metrics', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!tokenMatches(request.headers.authorization, token)) {
        return reply.status(401).send({ success: false, message: 'Metrics need the METRICS_TOKEN bearer token' });
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  }

  if (port !== undefined) {
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
        (err) => {
          app.log.error({ err }, 'metrics collection failed');
          res.writeHead(500).end();
        },
      );
    });
    app.decorate('metricsServer', server);
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, app.services.config.host, () => resolve());
      });
      app.log.info(`metrics on http://${app.services.config.host}:${(server.address() as { port: number }).port}/metrics`);
    });
    app.addHook('onClose', async () => {
      await new Promise((resolve) => server.close(resolve));
    });
  }
}
