import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

type Listener = (userId: string) => void;

/** Waits before each retry of a failed publish (a lost message would leave another instance trusting a revoked token until its memo expires). */
const PUBLISH_RETRIES_MS = [50, 250, 1000];
/** The longest a revoking request's answer waits for its message to be handed to Redis (see published()). */
const PUBLISH_WAIT_MS = 1000;

export interface SessionEventsOptions {
  redis?: Redis;
  channel: string;
  log: FastifyBaseLogger;
  retriesMs?: readonly number[];
}

/**
 * Tells interested parts that a user's tokens were revoked (token-version bump, account deleted
 * or merged away): the realtime server drops their sockets, the auth-state memo forgets them.
 * Every revocation path calls revoked() once its change has committed; it is the one place a
 * revocation is announced, here and (with Redis) on every other instance.
 */
export class SessionEvents {
  private readonly here: Listener[] = [];
  private readonly anywhere: Listener[] = [];
  private readonly unknown: (() => void)[] = [];
  private readonly instance = randomUUID();
  private readonly subscriber?: Redis;
  /** Without Redis there is no other instance to hear from; with it, only while subscribed. */
  private listening: boolean;
  private closed = false;
  /** Settles when the newest revocation's first publish attempt is over (sent or failed). */
  private lastPublish: Promise<void> = Promise.resolve();

  constructor(private readonly options?: SessionEventsOptions) {
    this.listening = !options?.redis;
    const subscriber = options?.redis?.duplicate();
    if (!subscriber) return;
    this.subscriber = subscriber;
    const { channel, log } = options!;
    subscriber.on('error', (err) => log.warn({ err }, 'session events subscriber error'));
    // Messages sent while disconnected are lost: stop trusting anything remembered until subscribed again.
    const lost = () => {
      if (!this.listening) return;
      this.listening = false;
      this.emitUnknown();
    };
    subscriber.on('close', lost);
    subscriber.on('end', lost);
    subscriber.on('reconnecting', lost);
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).then(
        () => {
          if (this.closed) return;
          this.listening = true;
          // Anything remembered (or being loaded) from before the subscription may have missed a message.
          this.emitUnknown();
        },
        (err) => log.warn({ err }, 'session events subscribe failed'),
      );
    });
    subscriber.on('message', (_channel, message: string) => {
      const parsed = parseMessage(message);
      if (!parsed) return this.emitUnknown();
      if (parsed.from !== this.instance) for (const l of this.anywhere) l(parsed.userId);
    });
  }

  /** Revocations made on this instance only (realtime: its Redis adapter already reaches every instance's sockets). */
  onRevoked(listener: Listener): void {
    this.here.push(listener);
  }

  /** Revocations made on any instance (this one at once, others as their Redis message arrives). */
  onRevokedAnywhere(listener: Listener): void {
    this.anywhere.push(listener);
  }

  /** Revocations may have been missed (the Redis subscription dropped or restarted): forget every remembered token state. */
  onUnknown(listener: () => void): void {
    this.unknown.push(listener);
  }

  /**
   * Whether every revocation reaches this instance right now: always without Redis (one
   * instance), with Redis only while subscribed. A memo of token states is trusted only then.
   */
  get reliable(): boolean {
    return this.listening;
  }

  /** Call after the revoking change committed. */
  revoked(userId: string): void {
    // Memo first (anywhere), then the sockets: a socket's re-check must not find the old state remembered.
    for (const l of this.anywhere) l(userId);
    for (const l of this.here) l(userId);
    if (!this.options?.redis) return;
    let done!: () => void;
    this.lastPublish = new Promise<void>((resolve) => {
      done = resolve;
    });
    void this.send(JSON.stringify({ from: this.instance, userId }), 0, done);
  }

  /**
   * Resolves once every revocation made here so far has been handed to Redis (first attempt), at
   * once without Redis or while it is unreachable, after PUBLISH_WAIT_MS at most. A revoking
   * request's answer waits for it (app.ts), so the old token is refused by the next request its
   * client makes to any instance: Redis queued the message to them before answering the publish.
   */
  published(): Promise<void> {
    const redis = this.options?.redis;
    if (!redis || redis.status !== 'ready') return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, PUBLISH_WAIT_MS);
    });
    return Promise.race([this.lastPublish, timeout]).finally(() => clearTimeout(timer));
  }

  close(): void {
    this.closed = true;
    this.listening = false;
    this.subscriber?.disconnect();
  }

  private emitUnknown(): void {
    for (const l of this.unknown) l();
  }

  private async send(message: string, attempt: number, firstAttemptDone?: () => void): Promise<void> {
    const { redis, channel, log } = this.options!;
    const retries = this.options!.retriesMs ?? PUBLISH_RETRIES_MS;
    try {
      await redis!.publish(channel, message);
      firstAttemptDone?.();
    } catch (err) {
      firstAttemptDone?.();
      if (this.closed) return;
      if (attempt < retries.length) {
        log.warn({ err, attempt: attempt + 1 }, 'session revocation publish failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, retries[attempt]));
        return this.send(message, attempt + 1);
      }
      // The other instances forget it when their memo entry expires (AUTH_STATE_TTL_MS), or all of
      // it when their own subscription drops, which is likely when this publish cannot reach Redis.
      log.error({ err }, 'session revocation publish failed after retries');
    }
  }
}

function parseMessage(message: string): { from: string; userId: string } | undefined {
  try {
    const parsed = JSON.parse(message) as { from?: unknown; userId?: unknown };
    if (typeof parsed.from === 'string' && typeof parsed.userId === 'string') return { from: parsed.from, userId: parsed.userId };
  } catch {}
  return undefined;
}
