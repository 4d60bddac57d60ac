import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** The worker: its own connection to the same file, copying the WAL into the database. */
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const SQLite = require(workerData.modulePath);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 1000');
// PASSIVE copies the WAL without blocking anyone. Under steady writes it never finds the WAL
// fully copied at the moment a write begins, so the WAL would never start over and would grow
// without end: once it is large and mostly copied, RESTART copies the rest (holding writers
// back for that short moment) so the next write starts it over.
let timer;
const run = () => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    if (r.log > workerData.restartFrames) db.pragma('wal_checkpoint(RESTART)');
  } catch (err) { parentPort.postMessage(String(err)); }
  timer = setTimeout(run, workerData.intervalMs);
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
  intervalMs?: number;
  /** A WAL with more frames than this is started over (RESTART) once mostly copied. */
  restartFrames?: number;
  /** After starting over, the WAL file is cut back to this size. */
  walLimitBytes?: number;
}

export function startBackgroundCheckpoints(
  sqlite: SQLite.Database,
  file: string,
  options: CheckpointOptions = {},
): { stop(): Promise<void> } {
  const { intervalMs = 100, restartFrames = 4096, walLimitBytes = 64 * 1024 * 1024 } = options;
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath, file, intervalMs, restartFrames } });
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
  return {
    async stop() {
      stopped = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
      await worker.terminate();
    },
  };
}
