/**
 * Realtime bench helpers: a fresh database with ready-to-sign-in users, and the built server
 * started as one or more child processes (pinned with taskset, file-descriptor limit raised).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config';
import type { Row } from './bulk-writer';
import { seedId } from './seed-data';
import { openWriter, USER_COLUMNS } from './seed-helpers';

export const PASSWORD = 'password123';

export interface BenchDatabase {
  engine: 'sqlite' | 'postgres';
  /** DATA_DIR (always: uploads and the SQLite file live there) and DATABASE_URL for PostgreSQL. */
  env: { DATA_DIR: string; DATABASE_URL?: string };
  drop(): Promise<void>;
}

/** A temp DATA_DIR, plus a fresh PostgreSQL database when asked; drop() removes both. */
export async function createBenchDatabase(engine: 'sqlite' | 'postgres', adminUrl: string, name: string): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-rt-bench-'));
  if (engine === 'sqlite') {
    return { engine, env: { DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    engine,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      // Retried: PostgreSQL may be restarting (other benches share it).
      for (let attempt = 1; ; attempt++) {
        const c = new pg.Client({ connectionString: adminUrl });
        try {
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          return;
        } catch (err) {
          if (attempt >= 10) throw err;
          await new Promise((r) => setTimeout(r, 1000));
        } finally {
          await c.end().catch(() => {});
        }
      }
    },
  };
}

export interface BenchUser {
  id: string;
  email: string;
}

/**
 * Inserts verified users straight into the (migrated) database, like the seeder does. Their
 * password hash is a real argon2id hash of PASSWORD, made with low cost parameters (argon2 reads
 * them from the hash), so that signing in thousands of them through the real /signin route
 * takes seconds instead of minutes; the server's own hashes keep the production parameters.
 */
export async function insertUsers(db: BenchDatabase, count: number, prefix: string): Promise<BenchUser[]> {
  const config = loadConfig({ ...db.env, JWT_SECRET: 'x'.repeat(32) });
  const { writer } = await openWriter(config);
  const passwordHash = await hash(PASSWORD, { algorithm: 2, memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const base = Date.now();
  const now = new Date(base).toISOString();
  const users: BenchUser[] = [];
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    const user = { id: seedId(base + i, i), email: `${prefix}${i}@rt-bench.example` };
    users.push(user);
    // id, email, name, username, password_hash, bio, profile_pic, google_auth, google_sub, email_verified,
    // show_liked_blogs, show_saved_blogs, token_version, follower/following/published counts, times
    rows.push([
      user.id,
      user.email,
      `Bench ${prefix}${i}`,
      `${prefix}${i}`,
      passwordHash,
      '',
      null,
      0,
      null,
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      now,
      now,
    ]);
  }
  await writer.insert('users', USER_COLUMNS, rows);
  await writer.exec('ANALYZE');
  await writer.close();
  return users;
}

/** Current soft limit on open files of this process (via a shell, which inherits it). */
export function openFileLimit(): number {
  const out = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim();
  return out === 'unlimited' ? Number.POSITIVE_INFINITY : Number(out);
}

/**
 * Re-runs this script under a shell that first raises the open-file limit to `want` (the hard
 * limit allowing). Returns false when no re-run is needed or it was already done.
 */
export function reexecWithFileLimit(want: number): boolean {
  if (openFileLimit() >= want || process.env.INKWELL_RT_BENCH_REEXEC) return false;
  const result = spawnSync(
    'sh',
    [
      '-c',
      `ulimit -n ${want} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$@"`,
      'sh',
      process.execPath,
      ...process.execArgv,
      ...process.argv.slice(1),
    ],
    { stdio: 'inherit', env: { ...process.env, INKWELL_RT_BENCH_REEXEC: '1' } },
  );
  process.exit(result.status ?? 1);
}

/** The built server, pinned to `core` when taskset exists, with the file limit raised to the hard limit. */
export function startServer(root: string, env: NodeJS.ProcessEnv, core: number | null, nodeArgs: string[] = []): ChildProcess {
  const node = [process.execPath, ...nodeArgs, path.join(root, 'apps/server/dist/main.js')];
  const argv = core === null ? node : ['taskset', '-c', String(core), ...node];
  return spawn('sh', ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"', 'sh', ...argv], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU time (user + system, ms) and resident memory (MB) of a process, from /proc; null where /proc is missing. */
export function processUsage(pid: number | undefined): { cpuMs: number; rssMb: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the command name start at field 3 (state): utime is field 14, stime 15, rss (pages) 24.
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
    const rssMb = (Number(fields[21]) * 4096) / 1024 / 1024;
    return { cpuMs, rssMb };
  } catch {
    return null;
  }
}

export async function waitForHealth(base: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server for ${base} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${base} did not come up`);
}

export async function stopServers(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          const force = setTimeout(() => c.kill('SIGKILL'), 12_000);
          c.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          c.kill('SIGTERM');
        }),
    ),
  );
}

/** Removes whatever the servers left under the run's Redis prefix (rate-limit counters). */
export async function clearRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function signIn(base: string, email: string): Promise<{ id: string; token: string }> {
  const res = await fetch(`${base}/api/v1/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} answered ${res.status}: ${await res.text()}`);
  const { user } = (await res.json()) as { user: { id: string; token: string } };
  return { id: user.id, token: user.token };
}

/** Runs fn over items with at most `limit` in flight. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}
