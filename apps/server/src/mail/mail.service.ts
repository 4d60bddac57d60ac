import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { MailRepository, OutgoingMail } from './mail.repo';
import type { MailTransport } from './transport';

const MAX_ATTEMPTS = 8;
const BATCH = 20;
const LOCK_SECONDS = 60;

/**
 * Mail leaves through a database outbox: callers enqueue inside their own transaction,
 * so sign-up succeeds even when SMTP is down, and the worker retries with backoff.
 */
export class MailService {
  private timer?: NodeJS.Timeout;
  private draining?: Promise<number>;
  private stopped = false;

  constructor(
    private readonly repo: MailRepository,
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  enqueue(mail: OutgoingMail, trx?: Kysely<Database>): Promise<unknown> {
    return this.repo.insert(mail, trx);
  }

  /** Many mails in one statement, e.g. a batch of digests inside the transaction that records them. */
  async enqueueMany(mails: OutgoingMail[], trx?: Kysely<Database>): Promise<void> {
    if (mails.length) await this.repo.insertMany(mails, trx);
  }

  /** The outbox depth (metrics). */
  pendingCount(): Promise<number> {
    return this.repo.countPending();
  }

  /** Ask the worker to send soon (after the caller's transaction committed). */
  kick(): void {
    if (this.stopped) return;
    setImmediate(() => void this.drain().catch((err) => this.log.error({ err }, 'mail drain failed')));
  }

  start(intervalMs = 5000): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
    this.kick();
  }

  /** Sends every due mail once; returns how many were sent. One drain at a time per process. */
  drain(): Promise<number> {
    if (this.draining) return this.draining;
    this.draining = this.drainOnce().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private async drainOnce(): Promise<number> {
    let sent = 0;
    const due = await this.repo.findDue(BATCH);
    for (const row of due) {
      if (this.stopped) break;
      if (!(await this.repo.claim(row.id, LOCK_SECONDS))) continue;
      try {
        await this.transport.send({
          from: this.from,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
          headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : undefined,
        });
      } catch (err) {
        const attempts = row.attempts + 1;
        const delayMs = attempts >= MAX_ATTEMPTS ? 365 * 86400_000 : Math.min(3600_000, 2 ** attempts * 5000);
        this.log.warn({ err, to: row.to_address, attempts }, 'mail delivery failed; will retry');
        await this.repo.markFailed(row.id, attempts, String((err as Error).message ?? err), new Date(Date.now() + delayMs).toISOString());
        continue;
      }
      // Delivered. If the database is down now, this rejects and ends the drain (the worker tries
      // again on its next tick); the mail is not counted as a failed delivery.
      await this.repo.markSent(row.id);
      sent++;
    }
    return sent;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.draining?.catch(() => {});
    this.transport.close();
  }
}
