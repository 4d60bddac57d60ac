/**
 * CPU time per write, measured in-process with app.inject (no sockets), so it stays meaningful
 * on a busy machine: `DATA_DIR=/tmp/bench-1k npx tsx bench/cpu-per-write.ts` (or DATABASE_URL=…).
 * Prints µs of CPU and database statements per like toggle, comment and follow toggle (the write
 * mix's three requests), then per read the live site's writer makes after each of them (a post's
 * page, its comments, a profile), each read right after a write that changed it. On PostgreSQL
 * each statement is a round trip, the most of a write's cost on the VMs here. Last, a like taken
 * apart by layer: its service called alone (no HTTP), and on SQLite its statements alone, replayed
 * on a bare better-sqlite3 connection (no Kysely, no service): what a shorter path could save.
 */

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { createDatabase } from '../apps/server/src/db/database';
import { isTouchDeclaration } from '../apps/server/src/db/write-watch';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT_FACTOR: '100000' }, { mailWorker: false });
let statements = 0;
/** The SQL of the statements run while recording (the like's replay below). */
let recorded: { sql: string; parameters: readonly unknown[] }[] | null = null;
const database = createDatabase({
  databaseUrl: config.databaseUrl,
  sqliteFile: path.join(config.dataDir, 'inkwell.sqlite'),
  // As the server runs (app.ts). Without it this connection copied the WAL itself every 1,000
  // frames: a 9-21 ms COMMIT now and then on the event loop. The worker's copying is still counted
  // (process CPU), so the figures stay about the same; the event loop no longer stalls.
  backgroundCheckpoints: true,
  onQuery: (query) => {
    if (isTouchDeclaration(query.sql)) return;
    statements++;
    recorded?.push({ sql: query.sql, parameters: query.parameters });
  },
});
const app = await buildApp(config, { database });
await app.ready();
const json = async (url: string, init: { method?: 'GET' | 'POST'; payload?: object } = {}) => (await app.inject({ url, ...init })).json();
const { blogs } = await json('/api/v1/blogs?limit=50');
const slugs = (blogs as { blogId: string }[]).map((b) => b.blogId);
const users: { auth: Record<string, string>; id: string; username: string }[] = [];
for (let i = 1; i <= 20; i++) {
  const { user } = await json('/api/v1/signin', { method: 'POST', payload: { email: `user${i}@seed.example`, password: 'password123' } });
  users.push({ auth: { authorization: `Bearer ${user.token}` }, id: user.id, username: user.username });
}
let k = 0;
const next = () => {
  k++;
  return { user: users[k % users.length]!, slug: slugs[(k * 7) % slugs.length]! };
};
type Request = { method: 'GET' | 'POST' | 'PATCH'; url: string; headers?: Record<string, string>; payload?: object };
const like = (user: (typeof users)[number], slug: string): Request => ({
  method: 'POST',
  url: `/api/v1/blogs/like/${slug}`,
  headers: user.auth,
});
const comment = (user: (typeof users)[number], slug: string): Request => ({
  method: 'POST',
  url: `/api/v1/blogs/comment/${slug}`,
  headers: user.auth,
  payload: { comment: 'Benchmark comment' },
});
/** The user `user` follows or unfollows next (never themselves). */
const targetOf = (user: (typeof users)[number]) => {
  const target = users[(k * 3 + 1) % users.length]!;
  return target === user ? users[0]! : target;
};
const follow = (user: (typeof users)[number]): Request => ({
  method: 'PATCH',
  url: `/api/v1/follow/${targetOf(user).id}`,
  headers: user.auth,
});
/** Each case: the measured request, after an unmeasured one that changed what it reads (reads only). */
type Case = [string, () => { before?: Request; measured: Request }];
const cases: Case[] = [
  [
    'like toggle',
    () => {
      const { user, slug } = next();
      return { measured: like(user, slug) };
    },
  ],
  [
    'comment',
    () => {
      const { user, slug } = next();
      return { measured: comment(user, slug) };
    },
  ],
  ['follow toggle', () => ({ measured: follow(next().user) })],
  [
    "post's page after a like",
    () => {
      const { user, slug } = next();
      return { before: like(user, slug), measured: { method: 'GET', url: `/api/v1/blogs/${slug}` } };
    },
  ],
  [
    'comments after a comment',
    () => {
      const { user, slug } = next();
      return { before: comment(user, slug), measured: { method: 'GET', url: `/api/v1/blogs/${slug}/comments?page=1` } };
    },
  ],
  [
    'profile after a follow',
    () => {
      const { user } = next();
      return { before: follow(user), measured: { method: 'GET', url: `/api/v1/users/${targetOf(user).username}` } };
    },
  ],
  [
    // Above, everyone follows everyone: the followed user's own follows and likes have nearly
    // always dropped their profile since its last read. Here the first ten follow the last ten,
    // as readers follow authors, so only the follower count changed (lib/live-counts.ts).
    'profile after a fan follows',
    () => {
      k++;
      const fan = users[k % 10]!;
      const author = users[10 + ((k * 3) % 10)]!;
      return {
        before: { method: 'PATCH', url: `/api/v1/follow/${author.id}`, headers: fan.auth },
        measured: { method: 'GET', url: `/api/v1/users/${author.username}` },
      };
    },
  ],
];
const n = Number(process.env.N ?? 2000);
const cpuNow = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
/** One row of the table: µs of CPU and statements a request. */
const printRow = (name: string, cpuPerRequest: number, statementsPerRequest: number, note = '') =>
  console.log(
    `${name.padEnd(26)} ${cpuPerRequest.toFixed(0).padStart(5)} µs CPU/request ${statementsPerRequest.toFixed(2).padStart(5)} statements/request${note}`,
  );
// Unmeasured requests first. With 200 the first row (the like) read 1,500-1,600 µs, then 850-950
// when measured again after the other rows: V8 was still optimizing the write path.
const warmup = Number(process.env.WARMUP ?? 1500);
for (const [name, make] of cases) {
  for (let i = 0; i < warmup; i++) {
    const { before, measured } = make();
    if (before) await app.inject(before);
    await app.inject(measured);
  }
  // PROFILE=dir writes a .cpuprofile of each measured loop (open it in Chrome's DevTools).
  const session = process.env.PROFILE ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  let cpu = 0;
  let counted = 0;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const { before, measured } = make();
    if (before) await app.inject(before);
    const [cpu0, statements0] = [cpuNow(), statements];
    if ((await app.inject(measured)).statusCode >= 300) bad++;
    cpu += cpuNow() - cpu0;
    counted += statements - statements0;
  }
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${process.env.PROFILE}/${name.replace(/\W+/g, '-')}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
  printRow(name, cpu / n, counted / n, bad ? ` (${bad} not 2xx)` : '');
}

/** µs of CPU a call of `run` (after the warm-up calls), `n` calls. */
async function cpuPerCall(run: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < warmup; i++) await run(i);
  const cpu0 = cpuNow();
  for (let i = 0; i < n; i++) await run(warmup + i);
  return (cpuNow() - cpu0) / n;
}
const { reactions } = app.services;
const serviceLike = (i: number) => reactions.toggleLike(users[i % users.length]!.id, slugs[(i * 7) % slugs.length]!);
const statements0 = statements;
printRow('like, its service alone', await cpuPerCall(serviceLike), (statements - statements0) / (n + warmup));
if (config.databaseUrl === undefined) {
  // One user's unlike and like again, as the service ran them; each notification gets a new id.
  recorded = [];
  await serviceLike(0);
  await serviceLike(0);
  const pair = recorded as { sql: string; parameters: readonly unknown[] }[];
  recorded = null;
  const bare = new SQLite(path.join(config.dataDir, 'inkwell.sqlite'));
  for (const pragma of ['journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'cache_size = -64000']) bare.pragma(pragma);
  const replay = pair.map(({ sql, parameters }) => ({
    statement: bare.prepare(sql),
    parameters,
    notification: sql.startsWith('insert into "notifications"'),
  }));
  let id = 0;
  const bareLikePair = () => {
    for (const { statement, parameters, notification } of replay) {
      const values = notification ? [`bench-${process.pid}-${id++}`, ...parameters.slice(1)] : parameters;
      if (statement.reader) statement.all(values);
      else statement.run(values);
    }
  };
  printRow('like, its statements alone', (await cpuPerCall(bareLikePair)) / 2, replay.length / 2);
  bare.close();
}
await app.close();
await database.destroy();
