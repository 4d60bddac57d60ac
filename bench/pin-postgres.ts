import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * `--pin-postgres CORE`: the local PostgreSQL's processes run on that core for the run (the
 * load generator's, 1), as a database on its own machine would, and get their own cores back
 * when it ends. On this 2-core VM a backend that node wakes is placed on node's core, so
 * PostgreSQL's share of each write otherwise comes out of the server's core (docs/performance.md,
 * eighteenth session). New backends inherit the postmaster's core. Linux with taskset, as root
 * or as the postgres user; refuses to start otherwise rather than measure something else.
 */
export function pinPostgres(core: number): () => void {
  const pids = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter(isPostgres);
  if (!pids.length) throw new Error('--pin-postgres: no postgres process on this machine (a remote database cannot be pinned)');
  const before = new Map<string, string>();
  const unpin = () => {
    for (const [pid, mask] of before) {
      try {
        if (isPostgres(pid)) taskset(['-p', mask, pid]);
      } catch {
        // the backend ended with its connection
      }
    }
  };
  try {
    for (const pid of pids) {
      const shown = taskset(['-p', pid]);
      const mask = /affinity mask: ([0-9a-f]+)/.exec(shown)?.[1];
      if (!mask) throw new Error(`--pin-postgres: cannot read the cores of process ${pid}: ${shown}`);
      before.set(pid, mask);
      taskset(['-p', '-c', String(core), pid]);
    }
  } catch (err) {
    unpin(); // none left half pinned
    throw err;
  }
  console.error(`  PostgreSQL's ${pids.length} processes pinned to core ${core} for the run`);
  // A bench stopped with Ctrl-C or a kill would otherwise leave the database on one core.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      unpin();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  return unpin;
}

function isPostgres(pid: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false; // the process ended
  }
}

function taskset(args: string[]): string {
  const out = spawnSync('taskset', args, { encoding: 'utf8' });
  if (out.error || out.status !== 0) throw new Error(`taskset ${args.join(' ')}: ${out.error?.message ?? out.stderr.trim()}`);
  return out.stdout;
}
