import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Addition, Touched, WriteSignal } from '../db/write-watch';
import { ANY_CHANGE } from './tagged-store';

/** Writes to these tables never change what is shown publicly (feed, blogs, profiles, comments). */
const PRIVATE_TABLES = new Set([
  'notifications',
  // A post's notices still to be written (the notification-fanout job's cursor).
  'notification_fanouts',
  'mail_outbox',
  'email_verifications',
  'password_resets',
  'transfer_requests',
  'uploads',
  'job_leases',
  // Autosaved work in progress is the author's alone (issue 16).
  'blog_autosaves',
  'blog_revisions',
  // Newsletter subscriptions, digest choices and the record of sent digests.
  'newsletter_subscribers',
  'digest_preferences',
  'digest_sends',
  // Reports and the moderation audit log are read by moderators only (issue 15).
  'reports',
  'moderation_actions',
]);

/** More distinct tags than this in one message: send "anything changed" instead. */
const MAX_TAGS_PER_MESSAGE = 500;
/** Waits before each retry of a failed publish; after the last one the instance empties its own copies. */
const PUBLISH_RETRIES_MS = [50, 250, 1000];
/** The longest a write's answer waits for its change to be handed to Redis (see published()). */
const PUBLISH_WAIT_MS = 1000;

/**
 * What changed, as tags of the public values it affects (ANY_CHANGE: anything may have), and for
 * a change made on this instance the rows it added (other instances get the tags alone).
 */
export type ChangeListener = (tags: readonly string[], added: readonly Addition[]) => void;

const NOTHING_ADDED: readonly Addition[] = [];

/** The tags a committed write affects: its declared tags, or ANY_CHANGE when it wrote a public table it did not declare. */
export function changedTags(tables: ReadonlySet<string>, touched?: Touched): readonly string[] {
  for (const t of tables) if (!PRIVATE_TABLES.has(t) && !touched?.tables.has(t)) return [ANY_CHANGE];
  return touched ? [...touched.tags] : [];
}

/**
 * "Public data changed": raised after a committed write here, or on another instance (Redis
 * pub/sub), so in-memory copies of public reads (response cache, blog memo) drop what it shows.
 * A subscriber (re)connect raises "anything changed": messages missed while disconnected are
 * unknowable; so does a publish that still fails after its retries (Redis is unreachable, so
 * this instance has likely missed the others' messages too).
 */
export class PublicDataChanges {
  private readonly listeners = new Set<ChangeListener>();
  private readonly instance = randomUUID();
  private pendingTags: Set<string> | null = null;
  /** Settles when the newest batch's first publish attempt is over (sent or failed). */
  private lastBatch: Promise<void> = Promise.resolve();
  private readonly subscriber?: Redis;
  private closed = false;
  /** Without Redis there is no other instance; with it, only while subscribed (see reliable). */
  private listening: boolean;

  constructor(
    writes: WriteSignal,
    private readonly options: { redis?: Redis; channel: string; log: FastifyBaseLogger; retriesMs?: readonly number[] },
  ) {
    this.listening = !options.redis;
    writes.on((tables, touched) => {
      const tags = changedTags(tables, touched);
      if (tags.length) this.changed(tags, touched?.added);
    });
    const subscriber = options.redis?.duplicate();
    if (!subscriber) return;
    this.subscriber = subscriber;
    subscriber.on('error', (err) => options.log.warn({ err }, 'public data subscriber error'));
    subscriber.on('ready', () => this.emit([ANY_CHANGE]));
    const lost = () => {
      this.listening = false;
    };
    subscriber.on('close', lost);
    subscriber.on('end', lost);
    subscriber.on('reconnecting', lost);
    // Subscribed (again): from now on every change reaches here; what was kept meanwhile may have missed one.
    subscriber.on('ready', () => {
      subscriber.subscribe(options.channel).then(
        () => {
          if (this.closed) return;
          this.listening = true;
          this.emit([ANY_CHANGE]);
        },
        (err) => options.log.warn({ err }, 'public data subscribe failed'),
      );
    });
    subscriber.on('message', (_channel, message: string) => {
      const parsed = parseMessage(message);
      if (parsed.from !== this.instance) this.emit(parsed.tags);
    });
  }

  /**
   * Whether every change made on any instance reaches this one right now: always without Redis,
   * with it only while subscribed. Copies that are kept only because they are cheap to keep
   * (the viewer flags) are not used otherwise; the public cache keeps serving (TTL backstop).
   */
  get reliable(): boolean {
    return this.listening;
  }

  on(listener: ChangeListener): void {
    this.listeners.add(listener);
  }

  /** A change made here: dropped from (or added to) this instance's copies at once, and told to the others. */
  changed(tags: readonly string[], added: readonly Addition[] = NOTHING_ADDED): void {
    this.emit(tags, added);
    this.publish(tags);
  }

  /**
   * Resolves once every change made here so far has been handed to Redis (first attempt), at
   * once without Redis or while it is unreachable, after PUBLISH_WAIT_MS at most. A write's
   * answer waits for it (app.ts): Redis has queued the message to every subscriber when it
   * answers the publish, so by the time the writer can make its next request (to any instance)
   * the message is already on its way there ahead of it, and that read does not find a copy
   * (cached page, viewer flags) from before the write.
   */
  published(): Promise<void> {
    const { redis } = this.options;
    if (!redis || redis.status !== 'ready') return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, PUBLISH_WAIT_MS);
    });
    return Promise.race([this.lastBatch, timeout]).finally(() => clearTimeout(timer));
  }

  close(): void {
    this.closed = true;
    this.listening = false;
    this.subscriber?.disconnect();
  }

  private emit(tags: readonly string[], added: readonly Addition[] = NOTHING_ADDED): void {
    for (const listener of this.listeners) listener(tags, added);
  }

  /** One message per event-loop turn, with the tags of every write committed in it. */
  private publish(tags: readonly string[]): void {
    if (!this.options.redis) return;
    if (this.pendingTags) {
      for (const t of tags) this.pendingTags.add(t);
      return;
    }
    this.pendingTags = new Set(tags);
    let sent!: () => void;
    this.lastBatch = new Promise<void>((resolve) => {
      sent = resolve;
    });
    setImmediate(() => {
      const all = this.pendingTags!;
      this.pendingTags = null;
      const message = all.has(ANY_CHANGE) || all.size > MAX_TAGS_PER_MESSAGE ? [ANY_CHANGE] : [...all];
      void this.send(JSON.stringify({ from: this.instance, tags: message }), 0, sent);
    });
  }

  private async send(message: string, attempt: number, firstAttemptDone?: () => void): Promise<void> {
    const { redis, channel, log } = this.options;
    const retries = this.options.retriesMs ?? PUBLISH_RETRIES_MS;
    try {
      await redis!.publish(channel, message);
    } catch (err) {
      firstAttemptDone?.();
      if (this.closed) return;
      if (attempt < retries.length) {
        log.warn({ err, attempt: attempt + 1 }, 'public data publish failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, retries[attempt]));
        return this.send(message, attempt + 1);
      }
      log.error({ err }, 'public data publish failed after retries; emptying this instance’s public copies');
      this.emit([ANY_CHANGE]);
    }
    firstAttemptDone?.();
  }
}

function parseMessage(message: string): { from?: string; tags: readonly string[] } {
  try {
    const parsed = JSON.parse(message) as { from?: unknown; tags?: unknown };
    if (typeof parsed.from === 'string' && Array.isArray(parsed.tags) && parsed.tags.every((t) => typeof t === 'string'))
      return { from: parsed.from, tags: parsed.tags as string[] };
  } catch {}
  // An older instance's message (its id alone) or anything unreadable: assume anything changed.
  return { from: message, tags: [ANY_CHANGE] };
}
