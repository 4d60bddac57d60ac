/**
 * A thread with more replies than a page of comments lists (issue: replies past 500): the page
 * that cuts it and the thread's own reply pages, timed in-process (app.inject, response cache
 * off so every read runs its queries). A fresh database: SQLite in a temporary directory, or
 * `DATABASE_URL=postgres://…/some_empty_db`. `npx tsx bench/comment-threads.ts` (REPLIES=20000).
 * Prints the median and p95 ms of each read over ROUNDS runs (the slowest of 15 for p95).
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { newId } from '../apps/server/src/db/ids';
import { median } from './stats';

const REPLIES = Number(process.env.REPLIES ?? 20_000);
const OTHERS = Number(process.env.OTHER_COMMENTS ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const dataDir = process.env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'inkwell-threads-'));
const config = loadConfig(
  { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_FACTOR: '100000', RESPONSE_CACHE: 'off' },
  { mailWorker: false },
);
const app = await buildApp(config);
await app.ready();
const db = app.services.database.db;

const signup = await app.inject({
  method: 'POST',
  url: '/api/v1/signup',
  payload: { name: 'Bench', email: `bench-${newId()}@example.com`, password: 'quill-and-ink-42' },
});
const userId =
  signup.json().user?._id ?? (await db.selectFrom('users').select('id').orderBy('created_at', 'desc').executeTakeFirstOrThrow()).id;
const blogDbId = newId();
const blogId = `threads-${blogDbId.slice(0, 8)}`;
const now = new Date().toISOString();
await db
  .insertInto('blogs')
  .values({
    id: blogDbId,
    blog_id: blogId,
    creator_id: userId,
    title: 'Threads',
    description: 'A long thread',
    content: '{"blocks":[]}',
    tags: '[]',
    draft: 0,
    created_at: now,
    updated_at: now,
  } as never)
  .execute();

// One thread of REPLIES (a tenth of them replies to a reply), and OTHERS replies spread over 49 other threads.
const start = Date.parse('2026-01-01T00:00:00.000Z');
let ms = 0;
const rows: Record<string, unknown>[] = [];
const row = (parent: string | null) => {
  const r = {
    id: newId(),
    blog_id: blogDbId,
    user_id: userId,
    parent_id: parent,
    comment: 'reply text',
    like_count: 0,
    reply_count: 0,
    hidden: 0,
    created_at: new Date(start + ms).toISOString(),
    updated_at: now,
  };
  ms++;
  rows.push(r);
  return r;
};
const others = Array.from({ length: 49 }, () => row(null));
const long = row(null); // the newest: first on the page
let last = long;
for (let i = 0; i < REPLIES; i++) last = row(i % 10 === 9 ? last.id : long.id);
for (let i = 0; i < OTHERS; i++) row(others[i % others.length]!.id);
for (let i = 0; i < rows.length; i += 500)
  await db
    .insertInto('comments')
    .values(rows.slice(i, i + 500) as never)
    .execute();
await db.updateTable('comments').set({ reply_count: 1 }).where('parent_id', 'is', null).where('blog_id', '=', blogDbId).execute();

async function time(name: string, url: string) {
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < ROUNDS + 2; i++) {
    const t0 = performance.now();
    const res = await app.inject({ url });
    status = res.statusCode;
    if (i >= 2) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p95 = times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)]!;
  console.log(`${name.padEnd(44)} ${status}  median ${median(times).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms`);
}

const engine = config.databaseUrl ? 'PostgreSQL' : 'SQLite';
console.log(`${engine}: a thread of ${REPLIES} replies beside ${OTHERS} replies in 49 threads, ${ROUNDS} rounds`);
const page = (await app.inject({ url: `/api/v1/blogs/${blogId}/comments?limit=50` })).json();
const cursor = page.replyCursors[long.id];
await time(cursor ? 'comments page (cuts the thread)' : 'comments page (all replies fit)', `/api/v1/blogs/${blogId}/comments?limit=50`);
if (!cursor) {
  // A small thread (REPLIES + OTHER_COMMENTS ≤ 500): the page is the read that matters.
  await time("thread's replies, first page", `/api/v1/blogs/${blogId}/comments/${long.id}/replies`);
  await app.close();
  process.exit(0);
}
await time("thread's replies, first page", `/api/v1/blogs/${blogId}/comments/${long.id}/replies`);
await time("thread's replies after the page's cursor", `/api/v1/blogs/${blogId}/comments/${long.id}/replies?cursor=${cursor}`);
const lastId = rows[rows.length - OTHERS - 2]!;
const near = Buffer.from(JSON.stringify([lastId.created_at, lastId.id])).toString('base64url');
await time("thread's replies, last page", `/api/v1/blogs/${blogId}/comments/${long.id}/replies?cursor=${near}`);
await app.close();
