/**
 * How long the event loop stops for the connection's own WAL copies (db/sqlite-checkpointer.ts)
 * under steady writes: `DATA_DIR=/tmp/bench-1k npx tsx bench/checkpoint-stalls.ts [--rate 100]
 * [--seconds 12]`. Runs the app in process on a seeded SQLite database (`npm run seed`), sends
 * likes and comments at the rate through app.inject, and prints every `wal_checkpoint` the main
 * thread ran with its duration (the worker's own passes run on their thread and are not counted).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';

const { values } = parseArgs({ options: { rate: { type: 'string', default: '100' }, seconds: { type: 'string', default: '12' } } });
const rate = Number(values.rate);
const seconds = Number(values.seconds);

// Wrapped before the app opens its connection: every checkpoint this thread runs, timed.
const stalls: number[] = [];
const pragma = SQLite.prototype.pragma;
SQLite.prototype.pragma = function timed(this: SQLite.Database, source: string, options?: SQLite.PragmaOptions) {
  const started = performance.now();
  const result = pragma.call(this, source, options);
  if (source.startsWith('wal_checkpoint')) stalls.push(performance.now() - started);
  return result;
} as SQLite.Database['pragma'];

const { buildApp } = await import('../apps/server/src/app');
const { loadConfig } = await import('../apps/server/src/config');
const config = loadConfig(
  { ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT_FACTOR: '100000', BACKGROUND_JOBS: 'off' },
  { mailWorker: false },
);
if (config.databaseUrl) throw new Error('SQLite only: unset DATABASE_URL and set DATA_DIR to a seeded directory.');
const app = await buildApp(config);
await app.ready();
const { blogs } = (await app.inject({ url: '/api/v1/blogs?limit=50&page=1' })).json() as { blogs: { blogId: string }[] };
if (!blogs.length) throw new Error('The database is empty: run `npm run seed -- --posts 1000` first.');
const tokens: string[] = [];
for (let i = 1; i <= 20; i++) {
  const signin = await app.inject({
    method: 'POST',
    url: '/api/v1/signin',
    payload: { email: `user${i}@seed.example`, password: 'password123' },
  });
  tokens.push((signin.json() as { user: { token: string } }).user.token);
}

let sent = 0;
const started = Date.now();
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    if (Date.now() - started > seconds * 1000) {
      clearInterval(timer);
      resolve();
      return;
    }
    sent++;
    const slug = blogs[(sent * 7) % blogs.length]!.blogId;
    const headers = { authorization: `Bearer ${tokens[sent % tokens.length]}` };
    void (sent % 2
      ? app.inject({ method: 'POST', url: `/api/v1/blogs/like/${slug}`, headers })
      : app.inject({ method: 'POST', url: `/api/v1/blogs/comment/${slug}`, headers, payload: { comment: 'Checkpoint bench' } }));
  }, 1000 / rate);
});
// A WAL that keeps starting over stays near one second of writes; one that never does keeps growing.
const walMb = statSync(path.join(config.dataDir, 'inkwell.sqlite-wal')).size / 1024 / 1024;
await app.close();
const sorted = [...stalls].sort((a, b) => a - b);
const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1) : '-');
console.log(
  `${sent} writes in ${seconds} s; the event loop ran ${stalls.length} WAL copies: median ${at(0.5)} ms, max ${at(1)} ms, ${stalls
    .reduce((s, t) => s + t, 0)
    .toFixed(0)} ms in all; WAL file ${walMb.toFixed(1)} MB at the end (${stalls.map((t) => t.toFixed(1)).join(' ')})`,
);
