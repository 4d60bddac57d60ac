/**
 * npm run bench:sitemap [-- --repeat 30]: times the sitemap index and the first, a middle and the
 * last file of each section on the seeded database (DATA_DIR, or DATABASE_URL for PostgreSQL),
 * through the app in-process (app.inject, gzip as crawlers ask, no sockets):
 * - the index's first build, which walks every file boundary (once per process and hour);
 * - cold: the response cache emptied before each request (as after any write), boundaries known;
 * - cached: answered from the response cache.
 * Prints p50/p99 wall-clock ms and the Node process's CPU ms per cold request: on a busy machine
 * the CPU time is what the same work costs on a free core (PostgreSQL's own CPU is not in it).
 */
import { parseArgs } from 'node:util';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';

const { values } = parseArgs({ options: { repeat: { type: 'string', default: '30' } } });
const repeat = Number(values.repeat);
const config = loadConfig(
  { ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT_FACTOR: '100000', BACKGROUND_JOBS: 'off', RESPONSE_CACHE: 'on' },
  { mailWorker: false },
);
const app = await buildApp(config);
await app.ready();
const cache = app.publicCache;
if (!cache) throw new Error('The response cache is off');

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

interface Timing {
  walls: number[];
  cpu: number;
  body: string;
  bytes: number;
}

async function time(url: string, n: number, cold: boolean): Promise<Timing> {
  const walls: number[] = [];
  let cpuTotal = 0;
  let body = '';
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    if (cold) cache?.invalidate();
    const cpu = process.cpuUsage();
    const start = performance.now();
    const res = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    walls.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpuTotal += (used.user + used.system) / 1000;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    bytes = res.rawPayload.length;
    if (!body) body = (await app.inject({ url })).body;
  }
  return { walls: walls.sort((a, b) => a - b), cpu: cpuTotal / n, body, bytes };
}

const row = (label: string, cold: Timing, cached: Timing | null, size: string) =>
  console.log(
    `| ${label} | ${pct(cold.walls, 50).toFixed(1)} | ${pct(cold.walls, 99).toFixed(1)} | ${cold.cpu.toFixed(1)} | ${
      cached ? `${pct(cached.walls, 50).toFixed(2)} | ${pct(cached.walls, 99).toFixed(2)}` : '- | -'
    } | ${size} |`,
  );

console.log(`\nSitemaps on ${config.databaseUrl ? 'postgres' : 'sqlite'}, ${repeat} requests per cell\n`);
console.log('| document | cold p50 ms | cold p99 ms | cold CPU ms | cached p50 ms | cached p99 ms | size |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
const first = await time('/sitemap.xml', 1, true);
const files = [...first.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL((m[1] ?? '').replace(/&amp;/g, '&')));
row('index, first build (walks every boundary)', first, null, `${files.length} files`);
row(
  'index',
  await time('/sitemap.xml', repeat, true),
  await time('/sitemap.xml', repeat * 10, false),
  `${(first.body.length / 1e3).toFixed(0)} kB`,
);
for (const section of ['posts', 'profiles', 'tags']) {
  const ofSection = files.filter((f) => f.pathname === `/sitemaps/${section}.xml`);
  const picked = [...new Set([ofSection[0], ofSection[Math.floor(ofSection.length / 2)], ofSection[ofSection.length - 1]])];
  for (const file of picked) {
    if (!file) continue;
    const url = file.pathname + file.search;
    const cold = await time(url, repeat, true);
    const cached = await time(url, repeat * 10, false);
    const urls = (cold.body.match(/<url>/g) ?? []).length;
    const size = `${urls} URLs, ${(cold.body.length / 1e6).toFixed(2)} MB (${(cold.bytes / 1e6).toFixed(2)} MB gzip)`;
    row(`${section} file ${ofSection.indexOf(file) + 1}/${ofSection.length}`, cold, cached, size);
  }
}
await app.close();
