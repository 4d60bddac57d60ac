/**
 * CPU time per request, measured in-process with app.inject (no sockets), so it stays
 * meaningful on a busy machine: `DATA_DIR=/tmp/bench-1k npx tsx bench/cpu-per-request.ts`.
 * Prints µs of CPU per request for the read paths, signed in and anonymous.
 */

import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT_FACTOR: '100000' }, { mailWorker: false });
const app = await buildApp(config);
await app.ready();
const json = async (url: string, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; payload?: object } = {}) =>
  (await app.inject({ url, ...init })).json();
const { blogs } = await json('/api/v1/blogs?limit=1');
const blogId = blogs[0].blogId as string;
const { user } = await json('/api/v1/signin', { method: 'POST', payload: { email: 'user1@seed.example', password: 'password123' } });
const auth = { authorization: `Bearer ${user.token}` };
const cases: [string, string, Record<string, string>?][] = [
  ['feed page 1', '/api/v1/blogs?limit=4&page=1'],
  ['feed page 1 (signed in)', '/api/v1/blogs?limit=4&page=1', auth],
  ['blog page', `/api/v1/blogs/${blogId}`],
  ['blog page (signed in)', `/api/v1/blogs/${blogId}`, auth],
  ['notifications (signed in)', '/api/v1/notifications?limit=4', auth],
];
const n = Number(process.env.N ?? 3000);
for (const [name, url, headers] of cases) {
  for (let i = 0; i < 300; i++) await app.inject({ url, headers });
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await app.inject({ url, headers });
  const used = process.cpuUsage(start);
  console.log(`${name.padEnd(28)} ${((used.user + used.system) / n).toFixed(0).padStart(5)} µs CPU/request`);
}
await app.close();
