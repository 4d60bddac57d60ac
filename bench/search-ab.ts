/**
 * npm run bench:search-ab -- --before <checkout> [--queries 1500 --seed 7]: this checkout's search
 * against another's (a `git worktree` of an earlier commit), on the same database (DATA_DIR, or
 * DATABASE_URL for PostgreSQL), query by query in one process: each random 2–3-word query runs on
 * both, in alternating order, so the host's speed (which drifts by ~20 % within minutes on the VMs
 * here) weighs on both alike. Prints wall ms per search (mean, p50, p95), this process's CPU and,
 * on PostgreSQL, each side's backend CPU (from /proc: clock ticks of 10 ms, summed over the run).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config';
import { cpuSeconds } from './live-site';
import { rng, searchTerms } from './seed-data';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    queries: { type: 'string', default: '1500' },
    warmup: { type: 'string', default: '100' },
    seed: { type: 'string', default: '7' },
  },
});
if (!values.before) throw new Error('--before <checkout> is required (e.g. git worktree add /tmp/before <commit>)');
const random = rng(Number(values.seed));
const query = () => searchTerms(random, 2, 3);
const procCpu = (pid: number) => (cpuSeconds(pid) ?? Number.NaN) * 1000;

const config = loadConfig(process.env);
interface Side {
  name: string;
  search: (terms: string[]) => Promise<unknown>;
  destroy: () => Promise<void>;
  backend: number;
  wall: number[];
  node: number;
  pg: number;
}
async function side(name: string, root: string): Promise<Side> {
  const { createDatabase } = await import(path.join(root, 'apps/server/src/db/database.ts'));
  const { SearchRepository } = await import(path.join(root, 'apps/server/src/modules/search/search.repo.ts'));
  const handle = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'inkwell.sqlite'), poolSize: 1 });
  const backend =
    handle.engine === 'postgres' ? (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]!.pid : 0;
  const repo = new SearchRepository(handle.db, {});
  return { name, search: (terms) => repo.search(terms, 10, 0), destroy: () => handle.destroy(), backend, wall: [], node: 0, pg: 0 };
}

const sides = [await side('before', path.resolve(values.before)), await side('this checkout', path.resolve(import.meta.dirname, '..'))];
for (let i = 0; i < Number(values.warmup); i++) {
  const q = query();
  for (const s of sides) await s.search(q);
}
const n = Number(values.queries);
for (let i = 0; i < n; i++) {
  const q = query();
  for (const s of i % 2 ? [...sides].reverse() : sides) {
    const pg0 = s.backend ? procCpu(s.backend) : 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await s.search(q);
    s.wall.push(performance.now() - t0);
    const cpu = process.cpuUsage(cpu0);
    s.node += (cpu.user + cpu.system) / 1000;
    if (s.backend) s.pg += procCpu(s.backend) - pg0;
  }
}
const pct = (a: number[], p: number) => a.slice().sort((x, y) => x - y)[Math.floor((a.length - 1) * p)]!;
console.log(`\n${sides[0]!.backend ? 'postgres' : 'sqlite'}: ${n} searches of 2-3 words on each side, interleaved (seed ${values.seed})\n`);
console.log('| code | wall mean ms | p50 | p95 | CPU of this process ms | CPU of the PostgreSQL backend ms |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const s of sides) {
  const mean = s.wall.reduce((a, b) => a + b, 0) / n;
  console.log(
    `| ${s.name} | ${mean.toFixed(2)} | ${pct(s.wall, 0.5).toFixed(2)} | ${pct(s.wall, 0.95).toFixed(2)} | ${(s.node / n).toFixed(2)} | ${s.backend ? (s.pg / n).toFixed(2) : ''} |`,
  );
}
for (const s of sides) await s.destroy();
