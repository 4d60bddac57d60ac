import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * When the worker passes again, from the WAL's frame count `log` this pass saw (-1: the pass was
 * refused) and the last pass's. A pass that finds few new frames waits longer before the next
 * one: once everything is copied, the next commit starts the WAL over and syncs its header on the
 * event loop (~1 ms), so passes as often as every 100 ms made nearly every write at a low rate pay
 * that. A WAL that started over since the last pass (fewer frames), or a refused pass (the
 * connection's own copy after a commit held the lock), says writes are going on: counting only
 * the frames since the restart sent the worker to sleep for a second at ~1,400 writes/s, and the
 * event loop then copied and synced that whole second itself (110 ms every second, measured).
 * Runs inside the worker (its source is copied there): plain JavaScript, no closure.
 */
export function nextPass(
  log: number,
  lastLog: number,
  options: { intervalMs: number; quietIntervalMs: number; busyFrames: number },
): { delayMs: number; lastLog: number } {
  const fresh = log >= lastLog ? log - lastLog : options.busyFrames;
  return { delayMs: fresh >= options.busyFrames ? options.intervalMs : options.quietIntervalMs, lastLog: Math.max(0, log) };
}

/** The worker: its own connection to the same file, copying the WAL into the database. */
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const SQLite = require(workerData.modulePath);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 1000');
// PASSIVE copies the WAL into the database without blocking anyone (nextPass says when to go again).
const nextPass = ${nextPass.toString()};
let timer;
let lastLog = 0;
const run = () => {
  let result = { log: -1 };
  try {
    [result] = db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) { parentPort.postMessage(String(err)); }
  if (result.log >= 0) parentPort.postMessage('passed');
  const next = nextPass(result.log, lastLog, workerData);
  lastLog = next.lastLog;
  timer = setTimeout(run, next.delayMs);
};
timer = setTimeout(run, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'stop') { clearTimeout(timer); try { db.pragma('wal_checkpoint(PASSIVE)'); } finally { db.close(); process.exit(0); } }
});
`;

/**
 * Moves WAL checkpoints off the request path. With SQLite's automatic checkpoint, every
 * thousandth page written made one commit copy the WAL into the database and fsync both:
 * about half of a write's cost, paid on the event loop. A worker thread with its own
 * connection checkpoints in the background instead (PASSIVE: it never blocks writers). If the
 * worker stops, the connection goes back to checkpointing itself.
 */
export interface CheckpointOptions {
  /** Between the worker's passes while writes are many (at least busyFrames new WAL frames a pass). */
  intervalMs?: number;
  /** Between passes otherwise. */
  quietIntervalMs?: number;
  busyFrames?: number;
  /** How often this connection completes the copy so the WAL can start over (at the first commit after a worker pass, at least half this apart). */
  restartEveryMs?: number;
  /**
   * After starting over, the WAL file is cut back to this size. Above a second of busy writes
   * (~70 MB at 1,800 writes/s): cut back to 64 MB, the file was grown again every second, and
   * the write mix cost 518–591 µs of server CPU a write against 507–534 at 256 MB (back to back).
   */
  walLimitBytes?: number;
}

export function startBackgroundCheckpoints(
  sqlite: SQLite.Database,
  file: string,
  options: CheckpointOptions = {},
): { stop(): Promise<void>; afterCommit(): void } {
  const { intervalMs = 100, quietIntervalMs = 1000, busyFrames = 1000, restartEveryMs = 1000, walLimitBytes = 256 * 1024 * 1024 } = options;
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath, file, intervalMs, quietIntervalMs, busyFrames } });
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');
  // After the WAL starts over, its file is cut back to this size.
  sqlite.pragma(`journal_size_limit = ${walLimitBytes}`);
  let stopped = false;
  const fallBack = () => {
    if (!stopped && sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  // The WAL starts over only when a write begins with all of it copied, which under steady
  // writes never coincides with the worker's passes. So now and then, right after a commit
  // (between transactions, the connection still held), this connection copies the few frames
  // the worker has not yet; the next write then starts the WAL over. It does so only on the first
  // commit after a pass of the worker, when what is left is that commit's frames: at any other
  // commit it could be up to a second of writes, copied on the event loop (6–45 ms once a second
  // at 100 writes/s, measured). If the worker is copying at that moment, PASSIVE gives up at once.
  let lastCopy = Date.now();
  let passedSinceCommit = false;
  worker.on('message', (m) => {
    if (m === 'passed') passedSinceCommit = true;
  });
  const afterCommit = () => {
    const firstAfterPass = passedSinceCommit;
    passedSinceCommit = false;
    const now = Date.now();
    if (!firstAfterPass || now - lastCopy < restartEveryMs / 2) return;
    try {
      const [r] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number }[];
      if (!r?.busy) lastCopy = now;
    } catch {}
  };
  return {
    afterCommit,
    async stop() {
      stopped = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
      await worker.terminate();
    },
  };
}
