/**
 * npm run bench [-- --duration 10 --connections 50 --json out.json --only feed]
 * npm run bench -- --only "live site" [--rates 10,100,300] [--repeat 8] [--write-warmup 60] [--write-targets unread] [--writer-alone [--no-checks]] [--control "GET /api/v1/me"] [--pin-postgres 1]   (reads while likes, comments and follows arrive)
 *
 * Starts the built server (apps/server/dist) on the already seeded database (DATA_DIR, or
 * DATABASE_URL for PostgreSQL; seed with `npm run seed -- --posts N`) and, in the same run, a
 * reference server answering the same paths with same-size bodies from memory. Loads each with
 * autocannon after a warm-up and prints req/s, p50, p99, errors, bytes and the ratio to the ceiling.
 * RESPONSE_CACHE=off in the environment benchmarks the full path (no in-memory public cache).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cpuSeconds, type LivePhase, liveSite, type WriteTargets, writerAlone } from './live-site';
import { parseControl } from './live-writer';
import { pinPostgres } from './pin-postgres';
import { type Scenario, scenarios } from './scenarios';
import { median } from './stats';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    json: { type: 'string' },
    only: { type: 'string' },
    port: { type: 'string', default: '3999' },
    // Skip the reference server (when only comparing runs with each other, e.g. 1k vs 1M posts).
    'no-ceiling': { type: 'boolean', default: false },
    // Writes per second for the live site scenario (its read-only figure is measured before and after).
    rates: { type: 'string', default: '10,100,300' },
    // The live site's rates, in turn, this many times (a read-only phase between every two): on a
    // shared VM one phase's figure swings by ±30 %, so the summary takes the median of many.
    repeat: { type: 'string', default: '1' },
    // Seconds of writes (at the highest rate, with the reads) before the live site's first phase.
    'write-warmup': { type: 'string', default: '60' },
    // With --only "live site": the writer alone (no readers), server CPU per write and its check.
    'writer-alone': { type: 'boolean', default: false },
    // With --writer-alone: the writes without their check reads (what the checks cost, by difference).
    'no-checks': { type: 'boolean', default: false },
    // The live site's writes go to what the readers read ('read') or to posts and authors no reader
    // reads ('unread'): the same writes with no entry of the readers to drop (live-site.ts WriteTargets).
    'write-targets': { type: 'string', default: 'read' },
    // The live site's writer sends this request instead of its writes (live-writer.ts ControlRequest).
    control: { type: 'string' },
    // PostgreSQL's processes on this core for the run (pin-postgres.ts), off the server's core.
    'pin-postgres': { type: 'string' },
  },
});
const duration = Number(values.duration);
const writeTargets: WriteTargets = (() => {
  const t = values['write-targets'];
  if (t !== 'read' && t !== 'unread') throw new Error('--write-targets is read or unread');
  return t;
})();
// A live-site phase without checks could not show that every write was visible: the writer alone only.
if (values['no-checks'] && !values['writer-alone']) throw new Error('--no-checks goes with --writer-alone');
const control = values.control === undefined ? undefined : parseControl(values.control);
if (control && values['writer-alone']) throw new Error('--control goes with the live site, not --writer-alone');
const postgresCore = values['pin-postgres'] === undefined ? undefined : Number(values['pin-postgres']);
if (postgresCore !== undefined) {
  if (!process.env.DATABASE_URL) throw new Error('--pin-postgres goes with DATABASE_URL');
  if (!Number.isInteger(postgresCore) || postgresCore < 0 || postgresCore >= cpus().length)
    throw new Error(`--pin-postgres is a core number, 0-${cpus().length - 1}`);
}
const connections = Number(values.connections);
const root = path.resolve(import.meta.dirname, '..');
const appPort = Number(values.port);
const refPort = appPort + 1;
const twoCores = cpus().length >= 2;

/**
 * Pins a child to core 0 (the load generator stays on the other core) when taskset exists.
 * SERVER_STDOUT=file keeps the child's stdout (where V8's --trace-* flags print).
 */
function start(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const cmd = twoCores ? 'taskset' : process.execPath;
  const argv = twoCores ? ['-c', '0', process.execPath, ...args] : args;
  return spawn(cmd, argv, {
    cwd: root,
    env,
    stdio: ['ignore', process.env.SERVER_STDOUT ? openSync(process.env.SERVER_STDOUT, 'w') : 'ignore', 'inherit'],
  });
}

async function waitFor(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

interface Result {
  name: string;
  reqPerSec: number;
  p50: number;
  /** autocannon has no p95; p97.5 bounds it from above. */
  p97_5: number;
  p99: number;
  errors: number;
  non2xx: number;
  bytes: number;
  ceiling?: number;
  ratio?: number;
  /** Server CPU (user + system, every thread) per request: steadier than req/s on a shared machine. */
  cpuUsPerRequest?: number;
  verified?: string;
}

async function load(base: string, s: Scenario, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: base,
    connections: s.connections ?? connections,
    duration: seconds,
    requests: s.requests(),
  });
}

async function main() {
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    ENV_FILE: 'none', // never a developer's .env
    PORT: String(appPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_FACTOR: '100000',
    // The cleanup jobs would delete seeded rows (read notifications past their retention) and
    // write during measurements: the seeded database stays as seeded.
    BACKGROUND_JOBS: 'off',
  };
  // SERVER_PROFILE=dir: the server writes a .cpuprofile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.SERVER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SERVER_PROFILE}`] : [];
  // SERVER_NODE_FLAGS="--flag …": node or V8 flags for the server alone (V8's are refused in NODE_OPTIONS).
  const flags = process.env.SERVER_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  // Pinned before the server connects, so its backends start on that core too.
  const unpin = postgresCore === undefined ? undefined : pinPostgres(postgresCore);
  const server = start([...flags, ...profile, path.join(root, 'apps/server/dist/main.js')], env);
  const stop: ChildProcess[] = [server];
  process.on('exit', () => {
    for (const c of stop) c.kill('SIGKILL');
    unpin?.();
  });
  const base = `http://127.0.0.1:${appPort}`;
  await waitFor(`${base}/api/v1/health`);

  const all = await scenarios(base);
  // --only takes comma-separated parts of scenario names.
  const wanted = values.only?.split(',').map((w) => w.trim());
  const chosen = wanted ? all.filter((s) => wanted.some((w) => s.name.includes(w))) : all;
  const live = !wanted || wanted.some((w) => 'live site'.includes(w));

  // The reference answers every read path with the real body captured from our server.
  const bodies: Record<string, string> = {};
  for (const s of chosen) for (const sample of s.samples ?? []) bodies[`${sample.method} ${sample.path}`] = sample.body;
  const bodiesFile = path.join(tmpdir(), `inkwell-bench-bodies-${process.pid}.json`);
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const reference = start(
    // One process (tsx as a loader, not its CLI, which would leave a child behind on kill).
    ['--import', 'tsx', path.join(root, 'bench/reference-server.ts'), bodiesFile, String(refPort)],
    process.env,
  );
  stop.push(reference);
  const refBase = `http://127.0.0.1:${refPort}`;
  await waitFor(refBase);

  const results: Result[] = [];
  for (const s of chosen) {
    await load(base, s, Number(values.warmup));
    const cpuBefore = cpuSeconds(server.pid);
    const r = await load(base, s, duration);
    const cpuAfter = cpuSeconds(server.pid);
    const result: Result = {
      name: s.name,
      reqPerSec: r.requests.average,
      p50: r.latency.p50,
      p97_5: r.latency.p97_5,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      bytes: Math.round(r.throughput.total / Math.max(1, r.requests.total)),
      cpuUsPerRequest:
        cpuBefore !== undefined && cpuAfter !== undefined && r.requests.total
          ? ((cpuAfter - cpuBefore) * 1e6) / r.requests.total
          : undefined,
    };
    if (s.samples?.length && !values['no-ceiling']) {
      await load(refBase, s, Number(values.warmup));
      const ref = await load(refBase, s, duration);
      result.ceiling = ref.requests.average;
      result.ratio = result.reqPerSec / ref.requests.average;
    }
    if (s.verify) result.verified = await s.verify();
    results.push(result);
    console.error(`  ${s.name}: ${Math.round(result.reqPerSec)} req/s${result.verified ? ` (${result.verified})` : ''}`);
  }
  if (live && values['writer-alone']) {
    const rows = await writerAlone(base, {
      rates: values.rates.split(',').map(Number),
      duration,
      warmup: Number(values.warmup),
      writeWarmup: Number(values['write-warmup']),
      serverPid: server.pid!,
      targets: writeTargets,
      checks: !values['no-checks'],
    });
    const per = values['no-checks'] ? 'per write (no check reads)' : 'per write and its check';
    console.log(`\n| writer alone (${writeTargets} targets): writes/s | writes | server CPU ms ${per} | stale | errors |`);
    console.log('|---:|---:|---:|---:|---:|');
    for (const r of rows) console.log(`| ${r.writesPerSec} | ${r.writes} | ${r.cpuMsPerWrite.toFixed(2)} | ${r.stale} | ${r.errors} |`);
  }
  const livePhases =
    live && !values['writer-alone']
      ? await liveSite(base, {
          // A read-only phase between every two write phases: each write phase is compared with the
          // read-only phases on either side of it (the read path keeps warming up for minutes).
          rates: [
            0,
            ...Array.from({ length: Number(values.repeat) }, () => values.rates.split(',').flatMap((rate) => [Number(rate), 0])).flat(),
          ],
          duration,
          warmup: Number(values.warmup),
          writeWarmup: Number(values['write-warmup']),
          connections,
          serverPid: server.pid,
          targets: writeTargets,
          control,
        })
      : [];
  // SIGTERM, then wait for the server's graceful exit (which writes SERVER_PROFILE's .cpuprofile)
  // before the exit handler's SIGKILL.
  const exited = new Promise((resolve) => server.once('exit', resolve));
  for (const c of stop) c.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);

  const engine = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
  const cache = process.env.RESPONSE_CACHE === 'off' ? 'response cache off' : 'response cache on';
  console.log(
    `\nInkwell bench: ${engine}, ${cache}, ${connections} connections, ${duration} s per scenario, ${cpus().length} cores${twoCores ? ' (server on core 0, load on the other)' : ''}${postgresCore === undefined ? '' : `, PostgreSQL on core ${postgresCore}`}\n`,
  );
  console.log('| scenario | req/s | p50 ms | p97.5 ms | p99 ms | errors | non-2xx | bytes | server CPU µs/req | ceiling req/s | ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${Math.round(r.reqPerSec)} | ${r.p50} | ${r.p97_5} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.bytes} | ${r.cpuUsPerRequest === undefined ? '-' : Math.round(r.cpuUsPerRequest)} | ${r.ceiling ? Math.round(r.ceiling) : '-'} | ${r.ratio ? `${(r.ratio * 100).toFixed(0)} %` : '-'} |`,
    );
  }
  for (const r of results) if (r.verified) console.log(`\n${r.name}: ${r.verified}`);
  if (livePhases.length) {
    const what = control
      ? `${control.method} ${control.path} instead of writes`
      : writeTargets === 'read'
        ? 'writes to what the readers read'
        : 'writes to posts and authors no reader reads';
    printLive(livePhases, what);
  }
  if (values.json) writeFileSync(values.json, JSON.stringify({ engine, cache, connections, duration, results, livePhases }, null, 2));
  process.exit(0);
}

/** The live site table: reads against the read-only figure while writes arrive, and what the writes showed; `what` names what the writer sent. */
function printLive(phases: LivePhase[], what: string): void {
  // Each write phase is compared with the read-only phases just before and after it (their mean):
  // the read path kept getting faster for minutes (the first read-only phase of a run came out up
  // to 20 % below the last), so one figure for the whole run made the first write phase look worse
  // and the later ones better. A read-only phase is shown against the mean of all of them.
  // Reads per CPU second of the server compare phases when its share of the core varies.
  const readOnly = phases.filter((p) => p.writesPerSec === 0);
  const mean = (of: LivePhase[], f: (p: LivePhase) => number | undefined) =>
    of.reduce((sum, p) => sum + (f(p) ?? Number.NaN), 0) / of.length;
  const neighbours = (i: number) => {
    const before = phases
      .slice(0, i)
      .reverse()
      .find((p) => p.writesPerSec === 0);
    const after = phases.slice(i + 1).find((p) => p.writesPerSec === 0);
    const around = [before, after].filter((p): p is LivePhase => p !== undefined);
    return phases[i]!.writesPerSec === 0 || !around.length ? readOnly : around;
  };
  const perCpu = (p: LivePhase) => (p.serverCpu ? p.reads.requests.total / p.serverCpu : undefined);
  const pct = (a: number | undefined, b: number) => (a === undefined || Number.isNaN(b) ? '-' : `${((a / b) * 100).toFixed(0)} %`);
  // On a shared machine the server gets a varying share of its core, and the work the writes
  // cause (the writes, the misses they bring) takes a fixed amount of CPU per second whatever
  // that share. So the loss is also given as that CPU: the server's CPU per second minus what
  // its reads cost at the read-only rate per CPU second; a whole core would serve reads at
  // (1 - that) of its read-only figure.
  const writeCpu = (p: LivePhase, baseCpu: number) =>
    p.serverCpu === undefined || Number.isNaN(baseCpu) ? undefined : (p.serverCpu - p.reads.requests.total / baseCpu) / p.reads.duration;
  console.log(
    `\n| live site (${what}): writes/s asked | writes/s done | reads/s | of read-only (the phases beside it) | server CPU share | CPU of writes and their misses (of a core) | reads on a whole core, of read-only | p50 ms | p99 ms | read errors | non-2xx | write errors | stale reads | load avg | host steal |`,
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const figures: { rate: number; ofReadOnly: number; wholeCore: number | undefined }[] = [];
  for (const [i, p] of phases.entries()) {
    const r = p.reads;
    const around = neighbours(i);
    const w = writeCpu(p, mean(around, perCpu));
    const readOnlyRate = mean(around, (q) => q.reads.requests.average);
    figures.push({ rate: p.writesPerSec, ofReadOnly: r.requests.average / readOnlyRate, wholeCore: w === undefined ? undefined : 1 - w });
    const share = p.serverCpu === undefined ? '-' : `${((p.serverCpu / r.duration) * 100).toFixed(0)} %`;
    const wText = w === undefined ? '-' : `${(w * 100).toFixed(1)} %`;
    const whole = w === undefined ? '-' : `${((1 - w) * 100).toFixed(0)} %`;
    console.log(
      `| ${p.writesPerSec} | ${Math.round(p.writes / r.duration)} | ${Math.round(r.requests.average)} | ${pct(r.requests.average, readOnlyRate)} | ${share} | ${wText} | ${whole} | ${r.latency.p50} | ${r.latency.p99} | ${r.errors + r.timeouts} | ${r.non2xx} | ${p.writeErrors} | ${p.stale.length} of ${p.checked} | ${p.load} | ${p.steal === undefined ? '-' : `${(p.steal * 100).toFixed(1)} %`} |`,
    );
  }
  for (const p of phases) for (const s of p.stale.slice(0, 5)) console.log(`stale at ${p.writesPerSec} writes/s: ${s}`);
  printLiveSummary(figures);
}

/** Per write rate: the median and range of each phase's figures (one phase swings by ±30 % on a shared VM). */
function printLiveSummary(figures: { rate: number; ofReadOnly: number; wholeCore: number | undefined }[]): void {
  const rates = [...new Set(figures.map((f) => f.rate))].filter((r) => r > 0);
  if (!rates.length || figures.filter((f) => f.rate === rates[0]).length < 2) return;
  const show = (xs: number[]) =>
    xs.length ? `${(median(xs) * 100).toFixed(0)} % (${(Math.min(...xs) * 100).toFixed(0)}–${(Math.max(...xs) * 100).toFixed(0)} %)` : '-';
  console.log('\n| live site summary: writes/s | phases | reads, of read-only: median (range) | reads on a whole core: median (range) |');
  console.log('|---:|---:|---:|---:|');
  for (const rate of rates) {
    const of = figures.filter((f) => f.rate === rate);
    const whole = of.map((f) => f.wholeCore).filter((w): w is number => w !== undefined);
    console.log(`| ${rate} | ${of.length} | ${show(of.map((f) => f.ofReadOnly))} | ${show(whole)} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
