import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ENGINE, ownConnectionInstance, type TestApp } from '../../test/helpers';
import { JobLeaseRepository } from './lease.repo';
import { type JobRun, Scheduler } from './scheduler';

const HOUR = 3600_000;

/** A job that records how many runs overlap, and finishes when told to. */
function gatedJob() {
  let active = 0;
  let release: () => void = () => {};
  let gate = new Promise<void>((r) => {
    release = r;
  });
  const state = {
    runs: 0,
    maxActive: 0,
    open() {
      release();
    },
    reset() {
      gate = new Promise<void>((r) => {
        release = r;
      });
    },
    run: (async () => {
      active++;
      state.runs++;
      state.maxActive = Math.max(state.maxActive, active);
      await gate;
      active--;
      return { probes: 1 };
    }) as JobRun,
  };
  return state;
}

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp();
  // Its own connection (pool or SQLite handle), as a second server process would have.
  b = await ownConnectionInstance(a);
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const lease = (name: string) => new JobLeaseRepository(a.database.db).find(name);

describe('scheduler on two app instances sharing one database', () => {
  it('registers the cleanup jobs on every instance', () => {
    expect(a.app.services.scheduler.names).toEqual([
      'unattached-uploads',
      'expired-tokens',
      'sent-mail',
      'read-notifications',
      'unconfirmed-subscribers',
      'unverified-accounts',
      ...(ENGINE === 'postgres' ? ['search-recent'] : []),
      'notification-fanout',
      'scheduled-posts',
      'digests',
    ]);
  });

  it('never runs one job on both instances at once', async () => {
    const job = gatedJob();
    a.app.services.scheduler.register('overlap-probe', HOUR, job.run);
    b.app.services.scheduler.register('overlap-probe', HOUR, job.run);
    for (let round = 0; round < 10; round++) {
      job.reset();
      const runs = [a.app.services.scheduler.runNow('overlap-probe'), b.app.services.scheduler.runNow('overlap-probe')];
      // The winner is held at the gate, so the first answer is the other instance's refusal.
      expect(await Promise.race(runs)).toEqual({ ran: false });
      job.open();
      const outcomes = await Promise.all(runs);
      expect(outcomes.filter((o) => o.ran)).toHaveLength(1);
    }
    expect(job.runs).toBe(10);
    expect(job.maxActive).toBe(1);
    expect(await lease('overlap-probe')).toMatchObject({ holder: null, locked_until: null, last_result: '{"probes":1}' });
  });

  it('runs a due job once per interval across the instances, not once per instance', async () => {
    let runs = 0;
    const run: JobRun = async () => {
      runs++;
      return {};
    };
    a.app.services.scheduler.register('interval-probe', HOUR, run);
    b.app.services.scheduler.register('interval-probe', HOUR, run);
    expect((await a.app.services.scheduler.runDue())['interval-probe']).toMatchObject({ ran: true, ok: true });
    expect((await b.app.services.scheduler.runDue())['interval-probe']).toEqual({ ran: false });
    expect((await a.app.services.scheduler.runDue())['interval-probe']).toEqual({ ran: false });
    expect(runs).toBe(1);
    const row = await lease('interval-probe');
    expect(Date.parse(row!.next_run_at) - Date.parse(row!.last_started_at!)).toBe(HOUR);
  });
});

describe('leases', () => {
  it('frees the job of a crashed holder once its lease runs out', async () => {
    const scheduler = new Scheduler({ db: a.database.db, log: a.app.log });
    scheduler.register('crash-probe', HOUR, async () => ({ done: 1 }));
    const leases = new JobLeaseRepository(a.database.db);
    await leases.ensure('crash-probe');
    expect(await leases.claim('crash-probe', 'crashed-instance', 60_000, HOUR, true)).toBe(true);
    expect(await scheduler.runNow('crash-probe')).toEqual({ ran: false });
    // The crashed holder's lease ends (as if a minute passed).
    await a.database.db
      .updateTable('job_leases')
      .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
      .where('name', '=', 'crash-probe')
      .execute();
    expect(await scheduler.runNow('crash-probe')).toMatchObject({ ran: true, ok: true, report: { done: 1 } });
  });

  it('tells a job to stop between batches when its lease was lost', async () => {
    const scheduler = new Scheduler({ db: a.database.db, log: a.app.log });
    let batches = 0;
    scheduler.register('lost-probe', HOUR, async (ctx) => {
      for (;;) {
        batches++;
        if (batches === 2) {
          // Another instance took over (after this one's lease ran out).
          await a.database.db.updateTable('job_leases').set({ holder: 'other' }).where('name', '=', 'lost-probe').execute();
        }
        if (!(await ctx.keepGoing())) return { batches };
      }
    });
    expect(await scheduler.runNow('lost-probe')).toMatchObject({ ran: true, ok: true, report: { batches: 2 } });
    // The release is for the holder only: the other instance's lease is left alone.
    expect(await lease('lost-probe')).toMatchObject({ holder: 'other' });
  });

  it('records a failed run, releases the lease and runs again next time', async () => {
    const scheduler = new Scheduler({ db: a.database.db, log: a.app.log });
    let fail = true;
    scheduler.register('failing-probe', HOUR, async () => {
      if (fail) throw new Error('disk full');
      return { ok: 1 };
    });
    expect(await scheduler.runNow('failing-probe')).toMatchObject({ ran: true, ok: false });
    expect(await lease('failing-probe')).toMatchObject({ holder: null, last_result: 'error: disk full' });
    fail = false;
    expect(await scheduler.runNow('failing-probe')).toMatchObject({ ran: true, ok: true });
  });

  it('waits for a running job on stop, and runs nothing after', async () => {
    const scheduler = new Scheduler({ db: a.database.db, log: a.app.log });
    const job = gatedJob();
    scheduler.register('stop-probe', HOUR, job.run);
    const running = scheduler.runNow('stop-probe');
    await new Promise((r) => setTimeout(r, 20));
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    job.open();
    await stopping;
    expect((await running).ran).toBe(true);
    expect(await scheduler.runNow('stop-probe')).toEqual({ ran: false });
  });

  it('refuses a job name registered twice', () => {
    const scheduler = new Scheduler({ db: a.database.db, log: a.app.log });
    scheduler.register('twice', HOUR, async () => ({}));
    expect(() => scheduler.register('twice', HOUR, async () => ({}))).toThrow('registered twice');
  });
});
