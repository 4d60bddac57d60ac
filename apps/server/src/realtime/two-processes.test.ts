import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../../test/helpers';
import { waitFor } from '../../test/smtp';

const enabled = ENGINE === 'postgres' && !!process.env.TEST_DATABASE_URL && !!process.env.TEST_REDIS_URL;
if (ENGINE === 'sqlite')
  console.warn(
    'SKIPPED on SQLite: the two-process realtime test runs in the PostgreSQL project (two processes share PostgreSQL and Redis).',
  );
else if (!enabled) console.warn('SKIPPED: the two-process realtime test needs TEST_DATABASE_URL and TEST_REDIS_URL.');

const serverDir = path.resolve(import.meta.dirname, '../..');
const dbName = `inkwell_rt_${randomBytes(4).toString('hex')}`;
const children: ChildProcess[] = [];
let dataDir = '';

function databaseUrl(name: string) {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A port nobody listens on now, from the OS (a random one could be an open client socket's). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One real server process, as behind a load balancer: same database, Redis and secret. */
async function startServer(): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      ENV_FILE: 'none', // never a developer's .env
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl(dbName),
      REDIS_URL: process.env.TEST_REDIS_URL,
      REDIS_PREFIX: `${dbName}:`,
      JWT_SECRET: 'two-process-test-secret-of-at-least-32-chars',
      RATE_LIMIT_FACTOR: '100',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  children.push(child);
  // Its errors go to our stderr as they come and, should it stop, into the failure's message (the last 2,000 characters).
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
    process.stderr.write(chunk);
  });
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  // Compiling the server with tsx while the other test worker runs took over 30 s on a slow CI host.
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`it exited with code ${child.exitCode}`);
    return (await fetch(`${base}/api/v1/health`).catch(() => null))?.ok;
  }, 90_000).catch((error: Error) => {
    throw new Error(`${error.message} (server on port ${port}, ${Date.now() - started} ms; its stderr: ${stderr || 'empty'})`);
  });
  return base;
}

const post = (url: string, body: unknown, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe.skipIf(!enabled)('realtime across two server processes (PostgreSQL + Redis)', () => {
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-rt-'));
  }, 30_000);

  afterAll(async () => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('a like handled by process A reaches the author socket on process B; signing out everywhere on A drops it and B refuses the token', async () => {
    const a = await startServer();
    const b = await startServer();
    const users: { token: string; id: string }[] = [];
    for (const name of ['Author', 'Fan']) {
      const email = `${name.toLowerCase()}.${randomBytes(3).toString('hex')}@example.com`;
      expect((await post(`${a}/api/v1/signup`, { name, email, password: 'quill-and-ink-42' })).status).toBe(201);
      // The verification link is in the outbox; marking the address verified is the same effect.
      const db = new pg.Client({ connectionString: databaseUrl(dbName) });
      await db.connect();
      await db.query('UPDATE users SET email_verified = 1 WHERE email = $1', [email]);
      await db.end();
      const signin = await post(`${b}/api/v1/signin`, { email, password: 'quill-and-ink-42' });
      users.push(((await signin.json()) as { user: { token: string; id: string } }).user);
    }
    const [author, fan] = users as [{ token: string; id: string }, { token: string; id: string }];
    const socket = connect(b, { transports: ['websocket'], auth: { token: author.token }, reconnection: false, forceNew: true });
    const received: { type: string }[] = [];
    const counts: number[] = [];
    socket.on('newNotification', (n) => received.push(n));
    socket.on('unreadCountUpdate', (n) => counts.push(n));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.timeout(5000).emitWithAck('register', author.id)).toEqual({ ok: true });
    const created = await post(
      `${a}/api/v1/blogs`,
      { title: 'Across instances', description: 'd', content: { blocks: [{ type: 'paragraph', data: { text: 'Body' } }] } },
      author.token,
    );
    const { blog } = (await created.json()) as { blog: { blogId: string } };
    const like = await fetch(`${a}/api/v1/blogs/like/${blog.blogId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fan.token}` },
    });
    expect(like.status).toBe(200);
    await waitFor(() => received.length && counts.length, 10_000);
    expect(received[0]!.type).toBe('like');
    expect(counts.at(-1)).toBe(1);

    // B remembers the author's token state now (lib/auth-state-memo.ts): its requests skip the database.
    const me = async () => (await fetch(`${b}/api/v1/me`, { headers: { authorization: `Bearer ${author.token}` } })).status;
    expect(await me()).toBe(200);
    expect(await me()).toBe(200);

    // Revocation handled by process A reaches the socket on process B.
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    expect((await post(`${a}/api/v1/signout-everywhere`, {}, author.token)).status).toBe(200);
    expect(await dropped).toBe('io server disconnect');
    // ... and process B refuses the revoked token within a second (its memo forgot it through Redis).
    const until = Date.now() + 1000;
    let status = await me();
    while (status !== 401 && Date.now() < until) status = await me();
    expect(status).toBe(401);
  }, 240_000);
});
