import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

const at = (ms: number) => new Date(ms).toISOString();

/**
 * Job leases: one row per job. Every change is one conditional UPDATE, atomic on both engines
 * (PostgreSQL re-checks the WHERE on the locked row; SQLite has one writer), so of several
 * instances claiming at once exactly one sees a row updated.
 */
export class JobLeaseRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Creates the job's row once (due at once); an existing row is left as it is. */
  async ensure(name: string): Promise<void> {
    await this.db
      .insertInto('job_leases')
      .values({
        name,
        holder: null,
        locked_until: null,
        next_run_at: at(Date.now()),
        last_started_at: null,
        last_finished_at: null,
        last_result: null,
      })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  /**
   * Takes the lease if nobody holds it (or the holder's lease ran out) and, unless `force`, the
   * job is due; schedules the next run `intervalMs` from now. True when this holder got it.
   */
  async claim(name: string, holder: string, leaseMs: number, intervalMs: number, force: boolean): Promise<boolean> {
    const now = Date.now();
    const result = await this.db
      .updateTable('job_leases')
      .set({ holder, locked_until: at(now + leaseMs), next_run_at: at(now + intervalMs), last_started_at: at(now) })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at(now))]))
      .$if(!force, (q) => q.where('next_run_at', '<=', at(now)))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Extends a held lease; false when it was lost (expired and taken by another instance). */
  async renew(name: string, holder: string, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('job_leases')
      .set({ locked_until: at(Date.now() + leaseMs) })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async release(name: string, holder: string, result: string): Promise<void> {
    await this.db
      .updateTable('job_leases')
      .set({ holder: null, locked_until: null, last_finished_at: at(Date.now()), last_result: result.slice(0, 1000) })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .execute();
  }

  find(name: string) {
    return this.db.selectFrom('job_leases').selectAll().where('name', '=', name).executeTakeFirst();
  }
}
