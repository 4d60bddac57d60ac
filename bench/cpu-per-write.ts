/**
 * CPU time per write, measured in-process with app.inject (no sockets), so it stays meaningful
 * on a busy machine: `DATA_DIR=/tmp/bench-1k npx tsx bench/cpu-per-write.ts` (or DATABASE_URL=…).
 * Prints µs of CPU per like toggle, comment and follow toggle, the write mix's three requests.
 */

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT_FACTOR: '100000' }, { mailWorker: false });
const app = await buildApp(config);
await app.ready();
const json = async (url: string, init: { method?: 'GET' | 'POST'; payload?: object } = {}) => (await app.inject({ url, ...init })).json();
const { blogs } = await json('/api/v1/blogs?limit=50');
const slugs = (blogs as { blogId: string }[]).map((b) => b.blogId);
const users: { auth: Record<string, string>; id: string }[] = [];
for (let i = 1; i <= 20; i++) {
  const { user } = await json('/api/v1/signin', { method: 'POST', payload: { email: `user${i}@seed.example`, password: 'password123' } });
  users.push({ auth: { authorization: `Bearer ${user.token}` }, id: user.id });
}
let k = 0;
const next = () => {
  k++;
  return { user: users[k % users.length]!, slug: slugs[(k * 7) % slugs.length]! };
};
type Case = [string, () => { method: 'POST' | 'PATCH'; url: string; headers: Record<string, string>; payload?: object }];
const cases: Case[] = [
  [
    'like toggle',
    () => {
      const { user, slug } = next();
      return { method: 'POST', url: `/api/v1/blogs/like/${slug}`, headers: user.auth };
    },
  ],
  [
    'comment',
    () => {
      const { user, slug } = next();
      return { method: 'POST', url: `/api/v1/blogs/comment/${slug}`, headers: user.auth, payload: { comment: 'Benchmark comment' } };
    },
  ],
  [
    'follow toggle',
    () => {
      const { user } = next();
      const target = users[(k * 3 + 1) % users.length]!;
      return { method: 'PATCH', url: `/api/v1/follow/${(target === user ? users[0]! : target).id}`, headers: user.auth };
    },
  ],
];
const n = Number(process.env.N ?? 2000);
for (const [name, make] of cases) {
  for (let i = 0; i < 200; i++) await app.inject(make());
  // PROFILE=dir writes a .cpuprofile of each measured loop (open it in Chrome's DevTools).
  const session = process.env.PROFILE ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const start = process.cpuUsage();
  let bad = 0;
  for (let i = 0; i < n; i++) if ((await app.inject(make())).statusCode >= 300) bad++;
  const used = process.cpuUsage(start);
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${process.env.PROFILE}/${name.replace(/\W+/g, '-')}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
  console.log(
    `${name.padEnd(16)} ${((used.user + used.system) / n).toFixed(0).padStart(5)} µs CPU/request${bad ? ` (${bad} not 2xx)` : ''}`,
  );
}
await app.close();
