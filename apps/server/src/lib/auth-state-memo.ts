/** Users whose token state is remembered; the least recently used go first. */
export const AUTH_STATE_MEMO_SIZE = 10_000;
/**
 * A remembered state is read again after this long even if no revocation was announced: the
 * backstop for a change nobody announced (an operator's SQL, a publish lost after its retries).
 * Short, because a revoked token must not live long; long enough to cover a reader's burst of
 * requests (a page load is several), which is where the memo saves its round trips.
 */
export const AUTH_STATE_TTL_MS = 10_000;

/** Forgotten users whose drop is still remembered; past this, everything loaded before is refused. */
const MAX_DROPPED = 10_000;

export interface AuthStateMemoOptions {
  maxEntries?: number;
  ttlMs?: number;
  /** Whether every revocation reaches this instance right now (SessionEvents.reliable); if not, nothing is remembered or trusted. */
  reliable?: () => boolean;
  now?: () => number;
}

/**
 * Each user's token state (id and token version), remembered in process memory so a signed-in
 * request needs no database round trip to check that its token was not revoked. Dropped by
 * every revocation (SessionEvents: this instance at once, others through Redis), all of it when
 * revocations may have been missed. A state loaded before a drop of its user that lands after
 * it is refused, so a revocation racing a load can never be undone by it.
 */
export class AuthStateMemo<S> {
  private readonly entries = new Map<string, { state: S; expires: number }>();
  /** The sequence number of each user's last drop. */
  private readonly dropped = new Map<string, number>();
  private seq = 0;
  /** Loads started before this are refused (everything was dropped, or drops were forgotten). */
  private floor = 0;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly reliable: () => boolean;
  private readonly now: () => number;

  constructor(options: AuthStateMemoOptions = {}) {
    this.maxEntries = options.maxEntries ?? AUTH_STATE_MEMO_SIZE;
    this.ttlMs = options.ttlMs ?? AUTH_STATE_TTL_MS;
    this.reliable = options.reliable ?? (() => true);
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether the user's state is remembered now (tests: a check that a read did not go to the database). */
  has(userId: string): boolean {
    return this.entries.has(userId);
  }

  /** The user's remembered state, or load() it (and remember it unless a drop of the user came in meanwhile). */
  async get(userId: string, load: () => Promise<S | undefined>): Promise<S | undefined> {
    if (this.reliable()) {
      const entry = this.entries.get(userId);
      if (entry) {
        if (entry.expires > this.now()) {
          // Re-insert: Map order is the LRU order.
          this.entries.delete(userId);
          this.entries.set(userId, entry);
          return entry.state;
        }
        this.entries.delete(userId);
      }
    }
    const started = this.seq;
    const state = await load();
    // An unknown user (deleted account) is not remembered: such tokens are rare and their row may come back (a restore).
    if (state !== undefined && this.reliable() && !this.droppedSince(userId, started)) {
      this.entries.delete(userId);
      this.entries.set(userId, { state, expires: this.now() + this.ttlMs });
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    return state;
  }

  /** The user's tokens were revoked: forget their state, and refuse any load of it already under way. */
  drop(userId: string): void {
    this.seq++;
    this.entries.delete(userId);
    if (this.dropped.size >= MAX_DROPPED) {
      this.dropped.clear();
      this.floor = this.seq;
    }
    this.dropped.set(userId, this.seq);
  }

  /** Revocations may have been missed: forget everyone, and refuse every load under way. */
  clear(): void {
    this.seq++;
    this.floor = this.seq;
    this.dropped.clear();
    this.entries.clear();
  }

  private droppedSince(userId: string, started: number): boolean {
    return started < this.floor || (this.dropped.get(userId) ?? 0) > started;
  }
}
