import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, expect, test } from 'vitest';
import { nextPass, startBackgroundCheckpoints } from './sqlite-checkpointer';

const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-ckpt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('under steady writes the WAL is copied by the worker and starts over, and every row is kept', async () => {
  const file = path.join(dir, 'db.sqlite');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
  const checkpoints = startBackgroundCheckpoints(db, file, { intervalMs: 20, restartEveryMs: 50, walLimitBytes: 1024 * 1024 });
  expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  const body = 'x'.repeat(3000);
  const walSize = () => statSync(`${file}-wal`).size;
  // Small transactions with the event loop turning between, until the WAL file is seen to shrink
  // (it started over and was cut back). Without checkpoints it only ever grows (~8 KB a row).
  let largest = 0;
  let startedOver = false;
  let rows = 0;
  while (!startedOver && rows < 40_000) {
    insert.run(body);
    checkpoints.afterCommit(); // as the server's connection does after each commit
    rows++;
    if (rows % 50 === 0) {
      await new Promise((r) => setTimeout(r, 0));
      const size = walSize();
      startedOver = size < largest;
      largest = Math.max(largest, size);
    }
  }
  expect(startedOver).toBe(true);
  await checkpoints.stop();
  expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: rows });
  db.close();
});

test('at a low write rate the worker passes seldom, so the WAL starts over (a synced header) a few times, not on every write', async () => {
  const file = path.join(dir, 'quiet.sqlite');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
  const checkpoints = startBackgroundCheckpoints(db, file, {
    intervalMs: 20,
    quietIntervalMs: 400,
    busyFrames: 1000,
    restartEveryMs: 1000,
  });
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  // The WAL header's salt (bytes 16-23) changes each time the WAL starts over.
  const salt = () => readFileSync(`${file}-wal`).subarray(16, 24).toString('hex');
  let restarts = 0;
  let last = '';
  for (let i = 0; i < 50; i++) {
    insert.run('x');
    checkpoints.afterCommit();
    const now = salt();
    if (last && now !== last) restarts++;
    last = now;
    await new Promise((r) => setTimeout(r, 20));
  }
  // One write every 20 ms for ~1.2 s: a pass every 20 ms would start the WAL over on nearly every write.
  expect(restarts).toBeLessThanOrEqual(6);
  await checkpoints.stop();
  expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 50 });
  db.close();
});

test('the worker keeps its pace through a WAL that started over or a refused pass, and slows down only when few frames came', () => {
  const options = { intervalMs: 100, quietIntervalMs: 1000, busyFrames: 1000 };
  // Many new frames: busy. Few: quiet.
  expect(nextPass(5000, 2000, options)).toEqual({ delayMs: 100, lastLog: 5000 });
  expect(nextPass(2100, 2000, options)).toEqual({ delayMs: 1000, lastLog: 2100 });
  // The WAL started over since the last pass (the connection's copy after a commit): only the
  // frames since the restart are seen, however many came before it. Writes are going on.
  expect(nextPass(700, 24_000, options)).toEqual({ delayMs: 100, lastLog: 700 });
  // Refused (log -1: the connection's own copy held the lock): try again soon, count afresh.
  expect(nextPass(-1, 3000, options)).toEqual({ delayMs: 100, lastLog: 0 });
  expect(nextPass(2500, 0, options)).toEqual({ delayMs: 100, lastLog: 2500 });
});
