/**
 * npm run bench:search-cost [-- --queries 400 --words 2-3 --seed 1]: where a search's time goes,
 * one query at a time in this process (DATA_DIR, or DATABASE_URL for PostgreSQL). Runs the search
 * repository on random 2–3-word queries drawn from the seeded vocabulary (the same queries for the
 * same seed) and prints CPU and wall-clock ms per search, each statement's share, and the slowest
 * queries. CPU time is this process's (on PostgreSQL also the backend's, from /proc), so it stays
 * meaningful on a busy machine.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config';
import { createDatabase } from '../apps/server/src/db/database';
import { SearchRepository } from '../apps/server/src/modules/search/search.repo';
import { cpuSeconds } from './live-site';
import { rng, searchTerms } from './seed-data';

const { values } = parseArgs({
  options: {
    queries: { type: 'string', default: '400' },
    warmup: { type: 'string', default: '100' },
    words: { type: 'string', default: '2-3' },
    seed: { type: 'string', default: '1' },
    slowest: { type: 'string', default: '8' },
    /** PostgreSQL: rows walked before GIN (the repository's default when unset). */
    walk: { type: 'string' },
    /** One query, its statements printed with their times (no statistics). */
    query: { type: 'string' },
  },
});
const [fewest, most] = values.words.split('-').map(Number) as [number, number?];
const random = rng(Number(values.seed));
const query = () => searchTerms(random, fewest, most);

const config = loadConfig(process.env);
let lastSql = '';
const handle = createDatabase({
  databaseUrl: config.databaseUrl,
  sqliteFile: path.join(config.dataDir, 'inkwell.sqlite'),
  poolSize: 1,
  onQuery: (q) => {
    lastSql = q.sql;
  },
});
/**
 * A statement's name: PostgreSQL's by their role (search.postgres.ts; the ranked ones share their
 * first words), any other by its first words.
 */
const ROLES: [RegExp, string][] = [
  [/\) newest WHERE/, 'walk of the newest rows (ranked)'],
  [/OFFSET 0\) matches.*count\(\*\) OVER|count\(\*\) OVER.*OFFSET 0\) matches/, 'GIN of the span (ranked)'],
  [/OFFSET 0\) matches/, 'GIN over all time'],
  [/\) older WHERE/, 'walk back from the span (older matches)'],
  [/numnode\(/, 'sample of the newest rows'],
];
const label = (text: string) => {
  const flat = text.replace(/\s+/g, ' ');
  return ROLES.find(([re]) => re.test(flat))?.[1] ?? flat.slice(0, 70);
};
let statements = new Map<string, number>();
handle.queryTimes.on((ms) => statements.set(label(lastSql), (statements.get(label(lastSql)) ?? 0) + ms));

const pg = handle.engine === 'postgres';
let backendPid = 0;
if (pg) {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
  backendPid = rows[0]!.pid;
}
/** CPU ms of a process from /proc (clock ticks of 10 ms). */
const procCpu = (pid: number) => (cpuSeconds(pid) ?? Number.NaN) * 1000;

const repo = new SearchRepository(handle.db, values.walk ? { walk: Number(values.walk) } : {});
if (values.query) {
  handle.queryTimes.on((ms) =>
    console.log(`${ms.toFixed(2).padStart(8)} ms  ${lastSql.replace(/\s+/g, ' ').slice(0, Number(process.env.SQL_CHARS ?? 150))}`),
  );
  for (let i = 0; i < 3; i++) {
    console.log(`run ${i + 1}:`);
    await repo.search(values.query.split(' '), 10, 0);
  }
  await handle.destroy();
  process.exit(0);
}
for (let i = 0; i < Number(values.warmup); i++) await repo.search(query(), 10, 0);
statements = new Map();

const runs: { terms: string; cpu: number; wall: number }[] = [];
const pgBefore = pg ? procCpu(backendPid) : 0;
for (let i = 0; i < Number(values.queries); i++) {
  const terms = query();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await repo.search(terms, 10, 0);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  runs.push({ terms: terms.join(' '), cpu: (cpu.user + cpu.system) / 1000, wall });
}
const pgCpu = pg ? (procCpu(backendPid) - pgBefore) / runs.length : 0;

const pct = (xs: number[], p: number) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const row = (name: string, xs: number[]) =>
  `| ${name} | ${mean(xs).toFixed(2)} | ${pct(xs, 50).toFixed(2)} | ${pct(xs, 95).toFixed(2)} | ${pct(xs, 99).toFixed(2)} | ${Math.max(...xs).toFixed(1)} |`;
console.log(`\n${handle.engine}: ${runs.length} searches of ${values.words} words, one at a time\n`);
console.log('| ms per search | mean | p50 | p95 | p99 | max |\n| --- | ---: | ---: | ---: | ---: | ---: |');
console.log(
  row(
    'wall',
    runs.map((r) => r.wall),
  ),
);
console.log(
  row(
    'CPU of this process',
    runs.map((r) => r.cpu),
  ),
);
if (pg) console.log(`| CPU of the PostgreSQL backend | ${pgCpu.toFixed(2)} | | | | |`);
console.log('\n| statement | ms per search | share of wall |\n| --- | ---: | ---: |');
const total = runs.reduce((a, r) => a + r.wall, 0);
for (const [name, ms] of [...statements].sort((a, b) => b[1] - a[1]))
  console.log(`| \`${name}\` | ${(ms / runs.length).toFixed(3)} | ${((100 * ms) / total).toFixed(0)} % |`);
console.log('\nslowest:');
for (const r of runs.sort((a, b) => b.wall - a.wall).slice(0, Number(values.slowest)))
  console.log(`  ${r.wall.toFixed(1)} ms wall, ${r.cpu.toFixed(1)} ms CPU: ${r.terms}`);
await handle.destroy();
