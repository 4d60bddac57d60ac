import type { FastifyRequest } from 'fastify';
import { countsTag, followersTag, postTag, profileTag } from './public-tags';
import { ANY_CHANGE } from './tagged-store';

/**
 * A cached answer whose counts (a post's likes, comments and saves; a profile's followers) are
 * put in when it is served, so a like or a follow no longer drops the page: the page is kept, and
 * only its counts are read again (one small query) the first time it is served after they
 * changed. Counts are a short text ("12,3,4") compared as is.
 */
export interface LiveCounts {
  /** The tag the counts' changes touch (countsTag or followersTag of what the answer shows). */
  keyOf(request: FastifyRequest): string;
  /** The counts in the answer the handler returned (before serialization). */
  seen(body: unknown): string;
  /** The counts now, from the database; undefined when it is gone (the full path answers). */
  read(request: FastifyRequest): Promise<string | undefined>;
  /** The serialized answer with these counts instead; undefined if its shape is not the expected one. */
  apply(text: string, counts: string): string | undefined;
}

/**
 * Where a write reports the counts it left (CountsMemo.learn), so the first reader after it does
 * not read them again: `epoch` is taken before the write runs.
 */
export interface CountsWriteBack {
  readonly epoch: number;
  learn(key: string, counts: string, epoch: number): void;
}

/** Counts remembered (and last changes remembered), at most. */
const MAX_KEYS = 20_000;

/**
 * The counts this instance knows to be current, by their tag: dropped by every change of the
 * counts or of what they belong to (countsTag or postTag of a post, followersTag or profileTag of
 * a user) from any instance, so a remembered value is never older than the last change this
 * instance heard of. A value read while a change of it arrived is not kept, so a read that raced
 * a write cannot be remembered as current. Other changes do not matter: at hundreds of writes a
 * second, a global check would refuse every read.
 */
export class CountsMemo implements CountsWriteBack {
  private readonly known = new Map<string, string>();
  /** The versions of each post's last two changes: reads under way, and writes reporting what they counted (learn). */
  private readonly changed = new Map<string, [before: number, last: number]>();
  /** Counts being read, by post: concurrent readers share a read that began after the post's last change. */
  private readonly reading = new Map<string, { epoch: number; counts: Promise<string | undefined> }>();
  private version = 0;
  /** Reads that began before this version are refused (after a clear or forgetting old changes). */
  private floor = 0;

  /** Take it before reading counts; pass it to setIf() and changedSince(). */
  get epoch(): number {
    return this.version;
  }

  get(key: string): string | undefined {
    return this.known.get(key);
  }

  /** Whether the post's counts may have changed since `epoch`. */
  changedSince(key: string, epoch: number): boolean {
    return epoch < this.floor || (this.changed.get(key)?.[1] ?? 0) > epoch;
  }

  /**
   * Counts a write read back as it changed them (its statement's RETURNING), `epoch` taken before
   * it ran and its own change heard since: kept only when that change is the only one of the post
   * heard since `epoch`. Any other (a concurrent write here or on another instance) may have
   * committed after it, so the next reader reads them again, as after any change. A change that
   * committed before this write is in what it read back; one heard only later drops this value.
   */
  learn(key: string, counts: string, epoch: number): void {
    const changes = this.changed.get(key);
    if (epoch < this.floor || !changes || changes[1] <= epoch || changes[0] > epoch) return;
    this.remember(key, counts);
  }

  /** Remembers counts read or rendered since `epoch`, unless they changed meanwhile. */
  setIf(key: string, counts: string, epoch: number): void {
    if (!this.changedSince(key, epoch)) this.remember(key, counts);
  }

  private remember(key: string, counts: string): void {
    this.known.delete(key);
    this.known.set(key, counts);
    if (this.known.size > MAX_KEYS) this.known.delete(this.known.keys().next().value as string);
  }

  /** One read of the same counts at a time, joined only by readers that came after their last change. */
  readOnce(key: string, epoch: number, read: () => Promise<string | undefined>): Promise<string | undefined> {
    const under = this.reading.get(key);
    if (under && !this.changedSince(key, under.epoch)) return under.counts;
    const counts = read().finally(() => {
      if (this.reading.get(key)?.counts === counts) this.reading.delete(key);
    });
    this.reading.set(key, { epoch, counts });
    return counts;
  }

  /** A change (from the change feed): forget what it may have moved. */
  drop(tags: readonly string[]): void {
    this.version++;
    if (tags.includes(ANY_CHANGE)) {
      this.known.clear();
      this.changed.clear();
      this.floor = this.version;
      return;
    }
    for (const tag of tags) {
      const key = countsKeyOf(tag);
      if (key === undefined) continue;
      const [before, last] = this.changed.get(key) ?? [0, 0];
      this.known.delete(key);
      this.changed.delete(key);
      // Two tags of one change (a post's counts and the post) are one change.
      this.changed.set(key, [last === this.version ? before : last, this.version]);
    }
    while (this.changed.size > MAX_KEYS) {
      // Forget the oldest changes; reads and writes from before them are refused.
      const [oldest, [, at]] = this.changed.entries().next().value as [string, [number, number]];
      this.changed.delete(oldest);
      this.floor = Math.max(this.floor, at);
    }
  }
}

/** What each kind of change drops: the counts themselves, or everything about their post or user. */
const KEY_OF_TAG: [prefix: string, key: (rest: string) => string][] = [
  [countsTag(''), countsTag],
  [postTag(''), countsTag],
  [followersTag(''), followersTag],
  [profileTag(''), followersTag],
];

function countsKeyOf(tag: string): string | undefined {
  for (const [prefix, key] of KEY_OF_TAG) if (tag.startsWith(prefix)) return key(tag.slice(prefix.length));
  return undefined;
}
