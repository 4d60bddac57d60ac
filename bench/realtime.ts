/**
 * npm run bench:realtime [-- --sockets 2000 --actions 2000 --rate 100 --instances 1,2 --json out.json]
 *
 * Realtime notification bench (docs/performance.md). For each run (one instance; two instances
 * sharing PostgreSQL and Redis) it creates a fresh database with N + A verified users, starts the
 * built server (apps/server/dist/main.js, pinned to core 0), signs every user in through
 * /api/v1/signin, connects N socket.io sockets (websocket, token in the handshake, register with
 * acknowledgement; spread round-robin over the instances), then has A other users follow them
 * through PATCH /api/v1/follow/{id} at a steady rate. Each follow creates one notification for one
 * socket's user; the bench times from sending the request to the newNotification event arriving,
 * and counts what never arrived. With two instances every action goes to the instance that does
 * not hold the recipient's socket, so every notification crosses Redis.
 *
 * Needs: PostgreSQL (--pg, default postgres://postgres@127.0.0.1:5432/postgres) for the
 * two-instance run, Redis (--redis, default redis://127.0.0.1:6379). Open files: the bench and
 * each server need about one descriptor per socket; the bench re-runs itself under a shell with
 * `ulimit -n` raised when the soft limit is too low (up to the hard limit), and starts servers
 * the same way.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { connectSockets, type LoadResult, runLoad } from './realtime-load';
import {
  type BenchDatabase,
  clearRedisPrefix,
  createBenchDatabase,
  insertUsers,
  openFileLimit,
  pool,
  processUsage,
  reexecWithFileLimit,
  signIn,
  startServer,
  stopServers,
  waitForHealth,
} from './realtime-setup';

const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '2000' },
    actions: { type: 'string' },
    warmup: { type: 'string', default: '200' },
    rate: { type: 'string', default: '100' },
    actors: { type: 'string', default: '50' },
    instances: { type: 'string', default: '1,2' },
    'one-engine': { type: 'string', default: 'sqlite' },
    pg: { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    redis: { type: 'string', default: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379' },
    port: { type: 'string', default: '4310' },
    /** Cores the servers are pinned to (as bench/run.ts does), instance i on the i-th (cycling): '0', '0,1', or 'none'. */
    pin: { type: 'string', default: '0' },
    drain: { type: 'string', default: '5000' },
    json: { type: 'string' },
  },
});
const N = Number(values.sockets);
const actions = Number(values.actions ?? N);
const warmup = Number(values.warmup);
const rate = Number(values.rate);
const A = Number(values.actors);
const runs = values.instances.split(',').map(Number);
const oneEngine = values['one-engine'] === 'postgres' ? 'postgres' : 'sqlite';
const root = path.resolve(import.meta.dirname, '..');
const pinCores =
  values.pin === 'none' || cpus().length < 2 || spawnSync('taskset', ['-V']).status !== 0 ? null : values.pin.split(',').map(Number);

interface RunResult extends LoadResult {
  instances: number;
  engine: string;
  sockets: number;
  socketFailures: number;
  connectSeconds: number;
  signinSeconds: number;
  rate: number;
  /** Server CPU (all instances, user + system) per action during the load phase. */
  serverCpuMsPerAction: number | null;
  /** Resident memory of each instance with every socket connected. */
  serverRssMb: number[];
  /** 1-minute load average of the machine before and after the run (others share it). */
  load: [number, number];
}

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void Promise.allSettled(cleanups.map((f) => f())).then(() => process.exit(130));
  });

async function run(instances: number): Promise<RunResult> {
  const engine = instances === 1 ? oneEngine : 'postgres';
  const tag = `inkwell_rt_bench_${process.pid}_${instances}`;
  const redisPrefix = `${tag}:`;
  console.error(`\n== ${instances} instance(s), ${engine}${instances > 1 ? ' + Redis' : ''}`);
  const loadBefore = loadavg()[0]!;
  const db: BenchDatabase = await createBenchDatabase(engine, values.pg, tag);
  const own: ChildProcess[] = [];
  const cleanup = async () => {
    await stopServers(own);
    await db.drop().catch((err) => console.error(`warning: could not drop the bench database ${tag}: ${err}`));
    if (instances > 1)
      await clearRedisPrefix(values.redis, redisPrefix).catch((err) =>
        console.error(`warning: could not clear Redis keys ${redisPrefix}*: ${err}`),
      );
  };
  cleanups.push(cleanup);
  try {
    const users = await insertUsers(db, N + A, 'rt');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      ENV_FILE: 'none', // never a developer's .env
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_FACTOR: '100000',
      JWT_SECRET: 'realtime-bench-secret-of-at-least-32-characters',
      ...db.env,
      ...(instances > 1 ? { REDIS_URL: values.redis, REDIS_PREFIX: redisPrefix } : {}),
    };
    const bases: string[] = [];
    for (let i = 0; i < instances; i++) {
      const port = Number(values.port) + i;
      // e.g. BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the servers.
      const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean);
      const child = startServer(root, { ...env, PORT: String(port) }, pinCores ? pinCores[i % pinCores.length]! : null, nodeArgs);
      own.push(child);
      children.push(child);
      bases.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(bases.map((base, i) => waitForHealth(base, own[i]!)));

    let started = performance.now();
    const sessions = await pool(users, 16, (u, i) => signIn(bases[i % bases.length]!, u.email));
    const signinSeconds = (performance.now() - started) / 1000;
    console.error(`  signed in ${sessions.length} users in ${signinSeconds.toFixed(1)} s`);
    const socketUsers = sessions.slice(0, N);
    const actors = sessions.slice(N);

    started = performance.now();
    const { holders, seconds: connectSeconds, failed } = await connectSockets(bases, socketUsers, 50);
    console.error(`  connected and registered ${N - failed}/${N} sockets in ${connectSeconds.toFixed(1)} s`);
    // Let the handshake burst settle before timing anything.
    await new Promise((r) => setTimeout(r, 2000));

    const before = own.map((c) => processUsage(c.pid));
    console.error(`  ${warmup} warm-up + ${actions} follows at ${rate}/s...`);
    const result = await runLoad({
      bases,
      holders,
      actors,
      warmup,
      actions,
      rate,
      drainMs: Number(values.drain),
      crossInstance: instances > 1,
    });
    const after = own.map((c) => processUsage(c.pid));
    const cpuMs = after.reduce<number | null>(
      (sum, a, i) => (sum === null || !a || !before[i] ? null : sum + a.cpuMs - before[i]!.cpuMs),
      0,
    );
    for (const h of holders) {
      h.socket.removeAllListeners('disconnect');
      h.socket.disconnect();
    }
    console.error(
      `  delivered ${result.delivered}, lost ${result.lost}, p95 ${result.latency.p95.toFixed(1)} ms, count events ${result.countEvents}` +
        (result.httpErrors ? `, failed actions: ${JSON.stringify(result.errorKinds)}` : ''),
    );
    return {
      ...result,
      instances,
      engine,
      sockets: N,
      socketFailures: failed,
      connectSeconds,
      signinSeconds,
      rate,
      serverCpuMsPerAction: cpuMs === null ? null : cpuMs / (warmup + actions),
      serverRssMb: before.map((u) => Math.round(u?.rssMb ?? 0)),
      load: [loadBefore, loadavg()[0]!],
    };
  } finally {
    await cleanup();
    cleanups.splice(cleanups.indexOf(cleanup), 1);
  }
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');

async function main() {
  reexecWithFileLimit(N + 1024);
  if (openFileLimit() < N + 256) console.error(`warning: open-file limit ${openFileLimit()} is low for ${N} sockets (raise ulimit -n)`);
  const results: RunResult[] = [];
  for (const instances of runs) results.push(await run(instances));

  console.log(
    `\nInkwell realtime bench: ${N} sockets, ${actions} follow notifications (+${warmup} warm-up) at ${rate}/s from ${A} users, ` +
      `${cpus().length} cores, ${pinCores === null ? 'nothing pinned' : `servers pinned to core ${pinCores.join(', ')} (bench, PostgreSQL and Redis not pinned)`}; ` +
      'latency = follow request sent → newNotification received; two instances: every action sent to the other instance\n',
  );
  console.log(
    '| run | database | sockets | actions | delivered | lost | dup | p50 ms | p95 ms | p99 ms | max ms | HTTP p50 ms | HTTP p95 ms | after answer p95 ms | HTTP errors | drops | connect s | server CPU ms/action | server RSS MB | load avg |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    console.log(
      `| ${r.instances === 1 ? '1 instance' : `${r.instances} instances + Redis`} | ${r.engine} | ${r.sockets - r.socketFailures}/${r.sockets} | ${r.sent} | ${r.delivered} | ${r.lost} | ${r.duplicates} | ${ms(r.latency.p50)} | ${ms(r.latency.p95)} | ${ms(r.latency.p99)} | ${ms(r.latency.max)} | ${ms(r.http.p50)} | ${ms(r.http.p95)} | ${ms(r.afterAnswer.p95)} | ${r.httpErrors} | ${r.drops} | ${r.connectSeconds.toFixed(1)} | ${r.serverCpuMsPerAction === null ? '-' : r.serverCpuMsPerAction.toFixed(2)} | ${r.serverRssMb.join(' + ')} | ${r.load.map((l) => l.toFixed(1)).join(' → ')} |`,
    );
  }
  const pass = results.every((r) => r.socketFailures === 0 && r.lost === 0 && r.httpErrors === 0 && r.latency.p95 < 100);
  console.log(`\nTarget (p95 < 100 ms, none lost, every socket connected): ${pass ? 'met' : 'NOT met'}`);
  if (values.json) writeFileSync(values.json, JSON.stringify({ sockets: N, actions, warmup, rate, actors: A, results }, null, 2));
  process.exit(0);
}

main().catch(async (err) => {
  console.error(err);
  await Promise.allSettled(cleanups.map((f) => f()));
  process.exit(1);
});
