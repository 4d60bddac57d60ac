import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { WriteSignal } from '../db/write-watch';

/** Writes to these tables never change what is shown publicly (feed, blogs, profiles, comments). */
const PRIVATE_TABLES = new Set([
  'notifications',
  'mail_outbox',
  'email_verifications',
  'password_resets',
  'transfer_requests',
  'uploads',
  'job_leases',
  // Autosaved work in progress is the author's alone (issue 16).
  'blog_autosaves',
]);

/**
 * "Public data changed": raised after a committed write here, or on another instance (Redis
 * pub/sub), so in-memory copies of public reads (response cache, blog memo) can be dropped.
 * A subscriber reconnect also raises it: messages missed while disconnected are unknowable.
 */
export class PublicDataChanges {
  private readonly listeners = new Set<() => void>();
  private readonly instance = randomUUID();
  private publishScheduled = false;
  private readonly subscriber?: Redis;

  constructor(
    writes: WriteSignal,
    private readonly options: { redis?: Redis; channel: string; log: FastifyBaseLogger },
  ) {
    writes.on((tables) => {
      for (const t of tables) {
        if (PRIVATE_TABLES.has(t)) continue;
        this.emit();
        this.publish();
        return;
      }
    });
    const subscriber = options.redis?.duplicate();
    if (!subscriber) return;
    this.subscriber = subscriber;
    subscriber.on('error', (err) => options.log.warn({ err }, 'public data subscriber error'));
    subscriber.on('ready', () => this.emit());
    subscriber.on('message', (_channel, from) => {
      if (from !== this.instance) this.emit();
    });
    void subscriber.subscribe(options.channel).catch((err) => options.log.warn({ err }, 'public data subscribe failed'));
  }

  on(listener: () => void): void {
    this.listeners.add(listener);
  }

  close(): void {
    this.subscriber?.disconnect();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  /** One message per event-loop turn, however many statements committed in it. */
  private publish(): void {
    const { redis, channel, log } = this.options;
    if (!redis || this.publishScheduled) return;
    this.publishScheduled = true;
    setImmediate(() => {
      this.publishScheduled = false;
      redis.publish(channel, this.instance).catch((err) => log.warn({ err }, 'public data publish failed'));
    });
  }
}
