/**
 * npm run bench:resilience [-- --only mixed|pg-restart|sigterm|memory] [--mixed-seconds 60]
 *   [--memory-seconds 300] [--connections 50] [--engine sqlite|postgres] [--posts 1000] [--json out.json]
 *
 * Resilience figures of the performance issue, each printed with PASS or FAIL:
 *  - mixed:      N s of mixed reads and writes at 50 connections: 0 errors and no non-2xx but the
 *                intended 4xx (counted by status code).
 *  - pg-restart: PostgreSQL stopped for 5 s and started again in the middle of a load run on a
 *                dedicated database (inkwell_resilience, created, seeded and dropped here): while it
 *                is down requests fail fast with 503 { success:false, message }, the process never
 *                exits, errors stop within 10 s of its return, and every comment answered 201 is
 *                still there. THIS RESTARTS THE LOCAL POSTGRESQL CLUSTER.
 *  - sigterm:    SIGTERM under load: requests in flight complete, the process exits within 10 s.
 *  - memory:     RSS of the server (VmRSS, sampled every second) through N s of mixed load.
 *
 * The server (apps/server/dist/main.js, built by the npm script) is pinned to core 0 with taskset;
 * this process generates the load. mixed, sigterm and memory run on a fresh SQLite database unless
 * --engine postgres (then the dedicated PostgreSQL database).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  errorLines,
  pgCtl,
  prepareTarget,
  presentComments,
  rssMb,
  type Server,
  startServer,
  type Target,
  waitForPg,
} from './resilience-env';
import { percentile, type Sample, startLoad, summarize } from './resilience-load';
import { buildMix } from './resilience-mix';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    'mixed-seconds': { type: 'string', default: '60' },
    'memory-seconds': { type: 'string', default: '300' },
    connections: { type: 'string', default: '50' },
    engine: { type: 'string', default: 'sqlite' },
    posts: { type: 'string', default: '1000' },
    'pg-posts': { type: 'string', default: '200' },
    port: { type: 'string', default: '4100' },
    json: { type: 'string' },
  },
});
const PARTS = ['mixed', 'pg-restart', 'sigterm', 'memory'] as const;
type Part = (typeof PARTS)[number];
const only = values.only?.split(',') as Part[] | undefined;
for (const p of only ?? []) if (!PARTS.includes(p)) throw new Error(`--only: one of ${PARTS.join(', ')}`);
const connections = Number(values.connections);
const engine = values.engine === 'postgres' ? 'postgres' : 'sqlite';
let port = Number(values.port);
const results: Record<string, unknown> = {};
const verdicts: string[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (v: number) => `${Math.round(v)} ms`;
const s1 = (v: number) => `${(v / 1000).toFixed(1)} s`;
const fmt = (o: Record<string, number>) =>
  Object.keys(o).length
    ? Object.entries(o)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')
    : 'none';

function verdict(ok: boolean, line: string) {
  const text = `${ok ? 'PASS' : 'FAIL'}  ${line}`;
  verdicts.push(text);
  console.log(text);
}

function load() {
  const [a, b, c] = loadavg();
  return `${a!.toFixed(2)} ${b!.toFixed(2)} ${c!.toFixed(2)}`;
}

const servers: Server[] = [];
process.on('exit', () => {
  for (const s of servers) s.kill();
});
async function start(target: Target): Promise<Server> {
  const server = await startServer(target, port);
  port = Number(new URL(server.base).port) + 1;
  servers.push(server);
  return server;
}
async function stopServer(server: Server) {
  if (!server.alive()) return;
  server.child.kill('SIGTERM');
  await Promise.race([server.exited, sleep(15_000)]);
  server.kill();
}

function logErrors(server: Server) {
  const errors = errorLines(server.logFile);
  const total = Object.values(errors).reduce((a, b) => a + b, 0);
  console.log(`  server log lines at level error: ${total}${total ? ` (${server.logFile})` : ''}`);
  for (const [msg, n] of Object.entries(errors).slice(0, 8)) console.log(`    ${n} × ${msg}`);
  return errors;
}

async function mixed(target: Target) {
  const seconds = Number(values['mixed-seconds']);
  console.log(`\n== mixed: ${seconds} s of mixed load at ${connections} connections (${target.engine}) ==`);
  const server = await start(target);
  const mix = await buildMix(server.base, randomBytes(3).toString('hex'));
  const run = startLoad({ base: server.base, connections, next: mix.next, seconds });
  await run.done;
  const sum = summarize(run.samples, seconds);
  console.log(
    `  ${sum.requests} requests, ${Math.round(sum.reqPerSec)} req/s, p50 ${sum.p50} ms, p99 ${sum.p99} ms; load average ${load()}`,
  );
  console.log('  | kind | requests | non-2xx | p99 ms |');
  for (const [kind, k] of Object.entries(sum.byKind)) console.log(`  | ${kind} | ${k.n} | ${k.non2xx} | ${k.p99} |`);
  console.log(`  connection errors/timeouts: ${sum.errors} (${fmt(sum.errorCodes)})`);
  console.log(`  non-2xx by status: ${fmt(sum.byStatus)}; not intended: ${fmt(sum.unintended)}`);
  const errors = logErrors(server);
  const alive = server.alive();
  await stopServer(server);
  verdict(
    sum.errors === 0 && sum.unintendedCount === 0 && alive,
    `mixed ${seconds} s at ${connections} connections: ${sum.errors} errors, ${sum.non2xx} non-2xx of which ${sum.unintendedCount} not intended (${fmt(sum.byStatus)})`,
  );
  results.mixed = { engine: target.engine, seconds, connections, ...sum, serverErrors: errors, acknowledgedComments: mix.acked.length };
}

async function memory(target: Target) {
  const seconds = Number(values['memory-seconds']);
  console.log(`\n== memory: server RSS through ${seconds} s of mixed load at ${connections} connections (${target.engine}) ==`);
  const server = await start(target);
  const mix = await buildMix(server.base, randomBytes(3).toString('hex'));
  const atStart = rssMb(server.pid) ?? 0;
  const rss: number[] = [];
  const run = startLoad({ base: server.base, connections, next: mix.next, seconds });
  const sampler = setInterval(() => {
    const v = rssMb(server.pid);
    if (v !== null) rss.push(v);
    if (rss.length % 60 === 0 && rss.length)
      console.log(`  ${rss.length} s: RSS ${v?.toFixed(0)} MB, max ${Math.max(...rss).toFixed(0)} MB`);
  }, 1000);
  await run.done;
  clearInterval(sampler);
  const final = rssMb(server.pid) ?? 0;
  const max = Math.max(...rss, final);
  const sum = summarize(run.samples, seconds);
  console.log(`  RSS before load ${atStart.toFixed(0)} MB, max ${max.toFixed(0)} MB, final ${final.toFixed(0)} MB (${rss.length} samples)`);
  console.log(
    `  ${sum.requests} requests, ${Math.round(sum.reqPerSec)} req/s, p99 ${sum.p99} ms, ${sum.errors} errors, non-2xx not intended: ${fmt(sum.unintended)}; load average ${load()}`,
  );
  logErrors(server);
  await stopServer(server);
  verdict(
    max < 300,
    `memory: RSS max ${max.toFixed(0)} MB, final ${final.toFixed(0)} MB through ${seconds} s of mixed load (limit 300 MB)`,
  );
  results.memory = {
    engine: target.engine,
    seconds,
    rssAtStartMb: atStart,
    rssMaxMb: max,
    rssFinalMb: final,
    perSecondMb: rss.map((v) => Math.round(v)),
    load: sum,
  };
}

async function sigterm(target: Target) {
  console.log(`\n== sigterm: SIGTERM after 10 s of mixed load at ${connections} connections (${target.engine}) ==`);
  const server = await start(target);
  const mix = await buildMix(server.base, randomBytes(3).toString('hex'));
  const run = startLoad({ base: server.base, connections, next: mix.next });
  await sleep(10_000);
  const tSig = run.now();
  const sigAt = performance.now();
  server.child.kill('SIGTERM');
  await Promise.race([server.exited, sleep(20_000)]);
  await sleep(500);
  run.stop();
  await run.done;
  const exit = server.exit;
  const shutdownMs = exit ? exit.at - sigAt : Number.POSITIVE_INFINITY;
  const inflight = run.samples.filter((s) => s.start < tSig && s.end >= tSig);
  const after = run.samples.filter((s) => s.start >= tSig);
  const outcome = (list: Sample[]) => {
    const o: Record<string, number> = {};
    for (const s of list) {
      const key = s.status === 0 ? `error ${s.error}` : s.status >= 200 && s.status < 300 ? '2xx' : String(s.status);
      o[key] = (o[key] ?? 0) + 1;
    }
    return o;
  };
  const inflightOk = inflight.filter((s) => s.intended).length;
  const lastInflight = Math.max(tSig, ...inflight.map((s) => s.end));
  console.log(`  load average ${load()}`);
  console.log(
    `  in flight at SIGTERM: ${inflight.length}: ${fmt(outcome(inflight))}; the last answered ${ms(lastInflight - tSig)} after SIGTERM`,
  );
  console.log(`  sent after SIGTERM: ${after.length}: ${fmt(outcome(after))}`);
  console.log(
    `  process exited ${exit ? `with code ${exit.code}${exit.signal ? ` (signal ${exit.signal})` : ''}` : 'NOT within 20 s'}, ${s1(shutdownMs)} after SIGTERM`,
  );
  logErrors(server);
  server.kill();
  verdict(
    inflightOk === inflight.length && shutdownMs < 10_000 && exit?.code === 0,
    `sigterm: ${inflightOk}/${inflight.length} in-flight requests completed as intended, shutdown ${s1(shutdownMs)} (limit 10 s), exit code ${exit?.code}`,
  );
  results.sigterm = { engine: target.engine, inflight: outcome(inflight), afterSigterm: outcome(after), shutdownMs, exitCode: exit?.code };
}

/** Signs up after the outage and waits for the verification mail (file transport, DATA_DIR/mail). */
async function mailAfterOutage(server: Server, target: Target): Promise<boolean> {
  const email = `after-outage-${randomBytes(4).toString('hex')}@resilience.example`;
  const res = await fetch(`${server.base}/api/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'After Outage', email, password: 'quill-and-ink-42' }),
  });
  if (res.status !== 201) return false;
  const dir = path.join(target.dataDir, 'mail');
  for (let i = 0; i < 100; i++) {
    const files = existsSync(dir) ? readdirSync(dir) : [];
    if (files.some((f) => readFileSync(path.join(dir, f), 'utf8').includes(email))) return true;
    await sleep(100);
  }
  return false;
}

async function pgRestart() {
  const posts = Number(values['pg-posts']);
  console.log(`\n== pg-restart: PostgreSQL stopped for 5 s and started again under load at ${connections} connections ==`);
  const target = await prepareTarget('postgres', posts);
  try {
    const server = await start(target);
    const mix = await buildMix(server.base, randomBytes(3).toString('hex'));
    const run = startLoad({ base: server.base, connections, next: mix.next });
    await sleep(10_000);
    console.log(
      `  >>> RESTARTING THE LOCAL POSTGRESQL CLUSTER NOW (pg_ctlcluster stop; 5 s; start): other PostgreSQL users on this machine see a short outage <<<`,
    );
    const tStop0 = run.now();
    await pgCtl('stop');
    const tStop1 = run.now();
    await sleep(5000);
    const tStart0 = run.now();
    await pgCtl('start');
    const tStart1 = run.now();
    const tUp = (await waitForPg(target.databaseUrl!)) - run.t0;
    console.log(`  >>> PostgreSQL is back (stop took ${ms(tStop1 - tStop0)}, down for ${s1(tUp - tStop1)}) <<<`);
    await sleep(20_000);
    run.stop();
    await run.done;
    const alive = server.alive();
    const health = alive ? (await fetch(`${server.base}/api/v1/health`).catch(() => null))?.status : undefined;

    const before = run.samples.filter((s) => s.end < tStop0);
    const down = run.samples.filter((s) => s.start >= tStop1 && s.end <= tStart0);
    const down503 = down.filter((s) => s.status === 503);
    const badBodies = run.samples.filter((s) => {
      if (s.status !== 503) return false;
      try {
        const b = JSON.parse(s.body ?? '') as { success?: unknown; message?: unknown };
        return !(b.success === false && typeof b.message === 'string' && b.message.length > 0);
      } catch {
        return true;
      }
    });
    const failures = run.samples.filter((s) => !s.intended);
    const outage = failures.filter((s) => s.end >= tStop0);
    const lastFailEnd = Math.max(-Infinity, ...failures.map((s) => s.end));
    const recoveryMs = Math.max(0, lastFailEnd - tUp);
    const afterRecovery = run.samples.filter((s) => s.start >= tUp + 10_000);
    const lateFailures = afterRecovery.filter((s) => !s.intended).length;
    const during: Record<string, number> = {};
    for (const s of outage) {
      const key = s.status === 0 ? `error ${s.error}` : String(s.status);
      during[key] = (during[key] ?? 0) + 1;
    }
    const downNon503: Record<string, number> = {};
    for (const s of down)
      if (s.status !== 503) {
        const key = s.status === 0 ? `error ${s.error}` : String(s.status);
        downNon503[key] = (downNon503[key] ?? 0) + 1;
      }
    const lat503 = down503.map((s) => s.end - s.start);
    const p99 = percentile(lat503, 99);

    const mailOk = alive ? await mailAfterOutage(server, target) : false;
    const ids = mix.acked.map((c) => c.id);
    const present = await presentComments(target.databaseUrl!, ids);
    const missing = mix.acked.filter((c) => present.get(c.id) !== c.text);

    console.log(`  load average ${load()}`);
    console.log(`  before the stop: ${before.length} requests, ${before.filter((s) => !s.intended).length} failures`);
    console.log(
      `  while down (requests sent after the stop returned and answered before the start): ${down.length}, 503: ${down503.length}, other: ${fmt(downNon503)}`,
    );
    console.log(
      `  503 latency while down: p50 ${ms(percentile(lat503, 50))}, p99 ${ms(p99)}, max ${ms(Math.max(0, ...lat503))}; 503 bodies not { success:false, message }: ${badBodies.length}`,
    );
    console.log(`  failures from the stop on, by status: ${fmt(during)}`);
    console.log(
      `  PostgreSQL start command returned ${ms(tStart1 - tStart0)} after it was issued; a bench client connected ${ms(tUp - tStart1)} later`,
    );
    console.log(
      `  last failed answer ${ms(lastFailEnd - tUp)} relative to that connection (negative: before it) => errors stopped ${s1(recoveryMs)} after PostgreSQL's return; failures among requests sent 10 s or more after its return: ${lateFailures} of ${afterRecovery.length}`,
    );
    console.log(
      `  server process: ${alive ? 'running' : `EXITED (${server.exit?.code ?? server.exit?.signal})`}; /api/v1/health after the run: ${health}`,
    );
    console.log(`  mail outbox after the outage: a sign-up's verification mail was ${mailOk ? 'delivered' : 'NOT delivered within 10 s'}`);
    console.log(
      `  acknowledged comments (201): ${ids.length}, present with their text: ${ids.length - missing.length}, missing: ${missing.length}`,
    );
    logErrors(server);
    await stopServer(server);

    verdict(
      down.length > 0 && down503.length === down.length && p99 < 1000 && badBodies.length === 0,
      `pg-restart: while down ${down503.length}/${down.length} requests answered 503 { success:false, message }, p99 ${ms(p99)} (limit 1 s)`,
    );
    verdict(
      alive && health === 200,
      `pg-restart: the process never exited${alive ? '' : ' — it DID exit'}; health ${health} after the run`,
    );
    verdict(
      recoveryMs < 10_000 && lateFailures === 0,
      `pg-restart: errors stopped ${s1(recoveryMs)} after PostgreSQL returned (limit 10 s)`,
    );
    verdict(mailOk, `pg-restart: the mail outbox worker delivers after the outage`);
    verdict(
      missing.length === 0 && ids.length > 0,
      `pg-restart: ${ids.length - missing.length}/${ids.length} acknowledged comments present after the run`,
    );
    results.pgRestart = {
      posts,
      stopTookMs: tStop1 - tStop0,
      downMs: tUp - tStop1,
      down: {
        requests: down.length,
        status503: down503.length,
        other: downNon503,
        p50: percentile(lat503, 50),
        p99,
        badBodies: badBodies.length,
      },
      failuresFromStop: during,
      recoveryMs,
      lateFailures,
      alive,
      health,
      acknowledgedComments: ids.length,
      missingComments: missing.length,
      mailAfterOutage: mailOk,
    };
  } finally {
    await target.cleanup();
  }
}

async function main() {
  console.log(`Inkwell resilience bench: ${cpus().length} cores (server on core 0), load average ${load()}`);
  const want = (p: Part) => !only || only.includes(p);
  let target: Target | undefined;
  const shared = async () => {
    if (!target) {
      console.log(`Seeding a fresh ${engine} database with ${values.posts} posts…`);
      target = await prepareTarget(engine, Number(values.posts));
    }
    return target;
  };
  try {
    if (want('mixed')) await mixed(await shared());
    if (want('sigterm')) await sigterm(await shared());
    if (want('memory')) await memory(await shared());
  } finally {
    await target?.cleanup();
  }
  if (want('pg-restart')) await pgRestart();

  console.log('\nSummary');
  for (const v of verdicts) console.log(`  ${v}`);
  if (values.json) writeFileSync(values.json, JSON.stringify({ cores: cpus().length, loadavg: loadavg(), verdicts, results }, null, 2));
  process.exit(verdicts.some((v) => v.startsWith('FAIL')) ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
