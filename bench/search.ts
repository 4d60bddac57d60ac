/**
 * npm run bench:search [-- --seconds 20 --connections 10 --words 2-3]: concurrent uncached
 * multi-word searches on the seeded database (DATA_DIR, or DATABASE_URL for PostgreSQL).
 * Starts the built server (RESPONSE_CACHE=off, so nothing is answered from memory; every query is
 * drawn afresh from the seeded vocabulary as well) pinned to core 0, and keeps `connections`
 * searches in flight from this process. Prints req/s, p50/p95/p99 ms and the server process's CPU
 * ms per search (on a loaded machine the latency includes waiting for a core; the CPU does not).
 */
import { parseArgs } from 'node:util';
import { cpuSeconds } from './live-site';
import { startServer, type Target } from './resilience-env';
import { percentile, type Req, startLoad } from './resilience-load';
import { rng, searchTerms } from './seed-data';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    words: { type: 'string', default: '2-3' },
    port: { type: 'string', default: '3990' },
  },
});
const [fewest, most] = values.words.split('-').map(Number) as [number, number?];
const random = rng(Date.now() % 1e9);

const queries = new Set<string>();
function next(): Req {
  const terms = searchTerms(random, fewest, most).join(' ');
  queries.add(terms);
  return { kind: 'search', method: 'GET', path: `/api/v1/search-blogs?search=${encodeURIComponent(terms)}&limit=10&page=1`, headers: {} };
}

/** CPU ms a process has used (utime + stime from /proc). */
const cpuMs = (pid: number) => (cpuSeconds(pid) ?? Number.NaN) * 1000;

const engine = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
const target: Target = {
  engine,
  env: process.env,
  dataDir: process.env.DATA_DIR ?? '',
  databaseUrl: process.env.DATABASE_URL,
  cleanup: async () => {},
};
const server = await startServer(target, Number(values.port), { RESPONSE_CACHE: 'off', BACKGROUND_JOBS: 'off' });
try {
  const connections = Number(values.connections);
  const warm = startLoad({ base: server.base, connections, next, seconds: Number(values.warmup) });
  await warm.done;
  queries.clear();
  const cpuBefore = cpuMs(server.pid);
  const run = startLoad({ base: server.base, connections, next, seconds: Number(values.seconds) });
  await run.done;
  const cpu = (cpuMs(server.pid) - cpuBefore) / Math.max(1, run.samples.length);
  const lat = run.samples.map((s) => s.end - s.start);
  const failed = run.samples.filter((s) => s.status !== 200).length;
  const seconds = Number(values.seconds);
  console.log(`\nSearch on ${engine}: ${connections} concurrent ${values.words}-word searches, response cache off, ${seconds} s\n`);
  console.log('| requests | distinct queries | req/s | p50 ms | p95 ms | p99 ms | non-200 | server CPU ms/search |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  console.log(
    `| ${lat.length} | ${queries.size} | ${(lat.length / seconds).toFixed(0)} | ${percentile(lat, 50).toFixed(1)} | ${percentile(lat, 95).toFixed(1)} | ${percentile(lat, 99).toFixed(1)} | ${failed} | ${cpu.toFixed(2)} |`,
  );
} finally {
  server.kill();
  await server.exited;
}
