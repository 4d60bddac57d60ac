import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { JobLeaseRepository } from './lease.repo';

/** What a job hands back: rows or files it removed, by kind, for the log and metrics. */
export type JobReport = Record<string, number>;

export interface JobContext {
  log: FastifyBaseLogger;
  /**
   * Call between batches: extends the lease and yields to the event loop. False means stop
   * now (the scheduler is closing, or the lease was lost to another instance).
   */
  keepGoing(): Promise<boolean>;
}

export type JobRun = (ctx: JobContext) => Promise<JobReport | undefined>;

export type RunOutcome =
  | { ran: false }
  | { ran: true; ok: true; report: JobReport; ms: number }
  | { ran: true; ok: false; error: unknown; ms: number };

interface Job {
  name: string;
  intervalMs: number;
  run: JobRun;
}

export interface SchedulerOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** How often each instance looks for due jobs. */
  tickMs?: number;
  /** How long a claim holds without renewal; a crashed holder's job is free again after this. */
  leaseMs?: number;
}

export type RunListener = (name: string, outcome: Exclude<RunOutcome, { ran: false }>) => void;

/**
 * Runs registered jobs, each on exactly one instance at a time: a run starts only after a
 * conditional UPDATE of the job's row in job_leases claimed it (works on SQLite and PostgreSQL).
 * The interval is cluster-wide (the claim also sets the next due time), so adding instances
 * does not run jobs more often. Every instance ticks; whichever claims a due job runs it.
 */
export class Scheduler {
  readonly instanceId = randomUUID();
  private readonly jobs = new Map<string, Job>();
  private readonly leases: JobLeaseRepository;
  private readonly ensured = new Set<string>();
  private readonly running = new Map<string, Promise<RunOutcome>>();
  private readonly listeners = new Set<RunListener>();
  private timer?: NodeJS.Timeout;
  private stopping = false;
  private readonly tickMs: number;
  private readonly leaseMs: number;

  constructor(private readonly options: SchedulerOptions) {
    this.leases = new JobLeaseRepository(options.db);
    this.tickMs = options.tickMs ?? 30_000;
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
  }

  register(name: string, intervalMs: number, run: JobRun): void {
    if (this.jobs.has(name)) throw new Error(`Job ${name} is registered twice`);
    this.jobs.set(name, { name, intervalMs, run });
  }

  /** Sees every finished run (metrics). */
  onRun(listener: RunListener): void {
    this.listeners.add(listener);
  }

  get names(): string[] {
    return [...this.jobs.keys()];
  }

  /** Looks for due jobs every tick, the first one a tick after start (not during boot). */
  start(): void {
    if (this.timer || this.stopping) return;
    this.timer = setInterval(() => void this.runDue(), this.tickMs);
    this.timer.unref();
  }

  /** Stops ticking and waits for runs in progress; a job sees keepGoing() false at its next batch. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled(this.running.values());
  }

  /** Runs every due job this instance can claim, one after another. */
  async runDue(): Promise<Record<string, RunOutcome>> {
    const outcomes: Record<string, RunOutcome> = {};
    for (const job of this.jobs.values()) {
      if (this.stopping) break;
      outcomes[job.name] = await this.attempt(job, false);
    }
    return outcomes;
  }

  /** Runs the job now if no instance is running it (ignores the due time); tests and operators. */
  runNow(name: string): Promise<RunOutcome> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`No job named ${name}`);
    return this.attempt(job, true);
  }

  private async attempt(job: Job, force: boolean): Promise<RunOutcome> {
    if (this.stopping || this.running.has(job.name)) return { ran: false };
    const run = this.claimAndRun(job, force).catch((err) => {
      // Claiming failed (database down): nothing ran; the next tick tries again.
      this.options.log.warn({ err, job: job.name }, 'could not claim job');
      return { ran: false } as const;
    });
    this.running.set(job.name, run);
    try {
      return await run;
    } finally {
      this.running.delete(job.name);
    }
  }

  private async claimAndRun(job: Job, force: boolean): Promise<RunOutcome> {
    const { leases, instanceId: holder, leaseMs } = this;
    if (!this.ensured.has(job.name)) {
      await leases.ensure(job.name);
      this.ensured.add(job.name);
    }
    if (!(await leases.claim(job.name, holder, leaseMs, job.intervalMs, force))) return { ran: false };

    const log = this.options.log.child({ job: job.name });
    const started = performance.now();
    const ctx: JobContext = {
      log,
      keepGoing: async () => {
        if (this.stopping) return false;
        await nextTurn();
        return leases.renew(job.name, holder, leaseMs);
      },
    };
    let outcome: Exclude<RunOutcome, { ran: false }>;
    try {
      const report = (await job.run(ctx)) ?? {};
      outcome = { ran: true, ok: true, report, ms: performance.now() - started };
      const removed = Object.values(report).reduce((a, b) => a + b, 0);
      // Logged at info only when something was removed, so an idle site's log stays quiet.
      log[removed ? 'info' : 'debug']({ ...report, ms: Math.round(outcome.ms) }, 'job finished');
    } catch (error) {
      outcome = { ran: true, ok: false, error, ms: performance.now() - started };
      log.error({ err: error }, 'job failed');
    }
    const summary = outcome.ok ? JSON.stringify(outcome.report) : `error: ${String((outcome.error as Error)?.message ?? outcome.error)}`;
    await leases.release(job.name, holder, summary).catch((err) => log.warn({ err }, 'could not release job lease'));
    for (const listener of this.listeners) listener(job.name, outcome);
    return outcome;
  }
}
