/**
 * Databases, server processes and PostgreSQL control for bench/resilience.ts.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

export const root = path.resolve(import.meta.dirname, '..');
const twoCores = cpus().length >= 2;
export const PG_DB = 'inkwell_resilience';

export interface Target {
  engine: 'sqlite' | 'postgres';
  env: NodeJS.ProcessEnv;
  dataDir: string;
  databaseUrl?: string;
  cleanup(): Promise<void>;
}

function adminUrl(): string {
  return process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function pgUrl(): string {
  const u = new URL(adminUrl());
  u.pathname = `/${PG_DB}`;
  return u.toString();
}

async function admin(query: string) {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    await c.query(query);
  } finally {
    await c.end();
  }
}

/** A fresh database (SQLite in a temp folder, or the dedicated PostgreSQL database), seeded. */
export async function prepareTarget(engine: 'sqlite' | 'postgres', posts: number): Promise<Target> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-resilience-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  let databaseUrl: string | undefined;
  if (engine === 'postgres') {
    databaseUrl = pgUrl();
    await admin(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${PG_DB}`);
    env.DATABASE_URL = databaseUrl;
  }
  const seeded = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bench/seed.ts', '--posts', String(posts)],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (seeded.status !== 0) throw new Error(`seeding failed (${seeded.status})`);
  return {
    engine,
    env,
    dataDir,
    databaseUrl,
    async cleanup() {
      if (engine === 'postgres') await admin(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`).catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Server {
  child: ChildProcess;
  pid: number;
  base: string;
  logFile: string;
  /** Set when the process exits (performance.now() time). */
  exit?: { code: number | null; signal: NodeJS.Signals | null; at: number };
  exited: Promise<void>;
  alive(): boolean;
  kill(): void;
}

/** The first port from `from` on that nothing listens on (other benches may hold some). */
export async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 200; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port from ${from}`);
}

/** Starts the built server pinned to core 0 (the load generator stays on the other core). */
export async function startServer(target: Target, fromPort: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<Server> {
  const port = await freePort(fromPort);
  const env = {
    ...target.env,
    NODE_ENV: 'production',
    ENV_FILE: 'none', // never a developer's .env
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_FACTOR: '100000',
    ...extraEnv,
  };
  // Logs outlive the temporary data folder, to be read after a failed run.
  const logDir = path.join(tmpdir(), 'inkwell-resilience-logs');
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `server-${target.engine}-${port}-${Date.now()}.log`);
  const fd = openSync(logFile, 'a');
  // SERVER_PROFILE=dir: the server writes a .cpuprofile there when it stops (kill() then sends SIGTERM).
  const profile = process.env.SERVER_PROFILE;
  const main = [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), path.join(root, 'apps/server/dist/main.js')];
  const child = twoCores
    ? spawn('taskset', ['-c', '0', process.execPath, ...main], { cwd: root, env, stdio: ['ignore', fd, fd] })
    : spawn(process.execPath, main, { cwd: root, env, stdio: ['ignore', fd, fd] });
  const server: Server = {
    child,
    pid: child.pid!,
    base: `http://127.0.0.1:${port}`,
    logFile,
    exited: new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        server.exit = { code, signal, at: performance.now() };
        resolve();
      });
    }),
    alive: () => !server.exit,
    kill: () => {
      if (!server.exit) child.kill(profile ? 'SIGTERM' : 'SIGKILL');
    },
  };
  for (let i = 0; i < 300; i++) {
    if (server.exit) throw new Error(`server exited at start (see ${logFile})`);
    try {
      if ((await fetch(`${server.base}/api/v1/health`)).ok && !server.exit) return server;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill();
  throw new Error(`server did not come up (see ${logFile})`);
}

/** Resident memory of a process in MB (VmRSS), or null once it is gone. */
export function rssMb(pid: number): number | null {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Log lines of the server at level error (50) or above, grouped by message. */
export function errorLines(logFile: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as { level: number; msg?: string; err?: { message?: string } };
      if (entry.level >= 50) {
        const key = `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message.slice(0, 120)}` : ''}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
    } catch {
      const key = `(not JSON) ${line.slice(0, 120)}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  return counts;
}

const run = promisify(execFile);

function cluster(): { version: string; name: string } {
  const version = process.env.PG_CLUSTER_VERSION ?? readdirSync('/etc/postgresql').sort().at(-1);
  if (!version) throw new Error('no PostgreSQL cluster under /etc/postgresql');
  return { version, name: process.env.PG_CLUSTER_NAME ?? 'main' };
}

export async function pgCtl(action: 'stop' | 'start'): Promise<void> {
  const { version, name } = cluster();
  await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, action]);
}

/** Waits until PostgreSQL accepts a query on the bench database; returns when it did. */
export async function waitForPg(url: string, timeoutMs = 60_000): Promise<number> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.query('select 1');
      await c.end();
      return performance.now();
    } catch {
      await c.end().catch(() => {});
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error('PostgreSQL did not come back');
}

/** Which of the acknowledged comment ids are in the database. */
export async function presentComments(url: string, ids: string[]): Promise<Map<string, string>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ id: string; comment: string }>(
      'select id::text as id, comment from comments where id::text = any($1::text[])',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.comment]));
  } finally {
    await c.end();
  }
}
