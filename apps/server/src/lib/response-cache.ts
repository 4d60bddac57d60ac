import type { Addition } from '../db/write-watch';
import { COMPRESS_THRESHOLD, compressBody as compress, type Encoding, pickEncoding } from './compression';
import { weakEtag } from './etag';
import { isCountsTag } from './public-tags';
import { ANY_CHANGE, TaggedStore } from './tagged-store';

export type { Encoding };

/**
 * A route's way of taking a row a write added into its cached body (a new comment into the first
 * page of its post's comments): the new body, or undefined when it cannot (another page, a full
 * thread budget): the entry is then dropped as any other.
 */
export type CachePatch = (url: string, body: string, added: unknown) => string | undefined;

/** A ready-to-send anonymous response: its headers and body in each encoding asked for so far. */
export interface CachedResponse {
  headers: Record<string, string>;
  etag: string;
  bodies: Partial<Record<Encoding, Buffer>>;
  /** The JSON text, for answers made from this one (a signed-in reader's blog page). */
  text: string;
  /** Set once the entry left the cache: a body compressed for it afterwards is not kept. */
  gone?: boolean;
  /** What it shows (TaggedStore tags), for a copy with other counts. */
  tags: readonly string[];
  /** The counts the body shows, on a route whose counts are put in when served (lib/live-counts.ts). */
  counts?: string;
  /** The route's CachePatch: a write adding a row it shows updates it instead of dropping it. */
  patch?: CachePatch;
  /** When the data it shows had been read (performance.now()), on a route with a patch. */
  readAt?: number;
}

/** An entry about to take in rows a write added: its new body so far, and the TTL it keeps. */
interface Update {
  entry: CachedResponse;
  body: string;
  expires: number;
}

export interface ResponseCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
  /** Bodies below this stay uncompressed, as @fastify/compress does. */
  compressThreshold?: number;
  /** How long an entry may be served at most (a change the cache never saw heals after it). */
  ttlMs?: number;
  /** How long a list page may show a post's previous counts after they changed (countsTag); default 1 s. */
  countsLagMs?: number;
  now?: () => number;
}

/**
 * An in-memory LRU of anonymous responses, keyed by URL and tagged with what they show (see
 * TaggedStore): a like drops its post's page at once and the list pages showing that post within
 * the counts lag, nothing else.
 * Bounded by entries and bytes (the text, its Buffer and every compressed copy are counted).
 */
export class ResponseCache {
  private readonly store: TaggedStore<CachedResponse>;
  private bytesUsed = 0;
  private readonly maxBytes: number;
  private readonly threshold: number;
  /** Read by the metrics (inkwell_public_cache_*). */
  hits = 0;
  misses = 0;
  invalidations = 0;
  /** Entries a write updated in place (CachePatch) instead of dropping them. */
  updates = 0;

  constructor(options: ResponseCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.threshold = options.compressThreshold ?? COMPRESS_THRESHOLD;
    this.store = new TaggedStore<CachedResponse>({
      maxEntries: options.maxEntries ?? 5000,
      ttlMs: options.ttlMs ?? 60_000,
      now: options.now,
      lag: { isLagTag: isCountsTag, ms: options.countsLagMs ?? 1000 },
      onRemove: (entry) => {
        entry.gone = true;
        this.bytesUsed -= entry.bodies.identity!.length; // the text
        for (const b of Object.values(entry.bodies)) this.bytesUsed -= b.length;
      },
    });
  }

  /** Read before computing a response; pass it back to set(). */
  get generation(): number {
    return this.store.generation;
  }

  get size(): number {
    return this.store.size;
  }

  /** Bytes held: each entry's text, its Buffer and its compressed copies. */
  get bytes(): number {
    return this.bytesUsed;
  }

  get(key: string): CachedResponse | undefined {
    const entry = this.store.get(key);
    if (entry) this.hits++;
    else this.misses++;
    return entry;
  }

  /** Stores an answer unless a change it may not show landed since `generation`: the stored entry, or undefined. */
  set(
    key: string,
    generation: number,
    entry: Omit<CachedResponse, 'bodies' | 'text' | 'tags'> & { body: string },
    tags: readonly string[] = [ANY_CHANGE],
    /** Keeps the TTL of the entry this one is a copy of (other counts). */
    expires?: number,
  ): CachedResponse | undefined {
    const body = Buffer.from(entry.body);
    if (body.length > this.maxBytes / 16) return undefined;
    const stored: CachedResponse = {
      headers: entry.headers,
      etag: entry.etag,
      bodies: { identity: body },
      text: entry.body,
      tags,
      counts: entry.counts,
      patch: entry.patch,
      readAt: entry.readAt,
    };
    if (!this.store.set(key, generation, stored, tags, expires)) return undefined;
    this.bytesUsed += body.length * 2; // the Buffer and the text
    this.shrink();
    return stored;
  }

  /** When the entry at `key` stops being served. */
  expiresAt(key: string): number | undefined {
    return this.store.expiresAt(key);
  }

  /**
   * Drops the entries showing any of these tags, except those that take in the rows the change
   * added (`added`, from a write on this instance): they are stored again with the rows in, keeping
   * their TTL, so the next reader is not sent to the database for what the writer already knew.
   */
  touch(tags: readonly string[], added: readonly Addition[] = []): void {
    this.invalidations++;
    const taken = added.length && !tags.includes(ANY_CHANGE) ? this.takeIn(added) : [];
    this.store.touch(tags);
    const generation = this.store.generation;
    for (const [key, { entry, body, expires }] of taken) {
      const etag = weakEtag(body);
      const copy = { ...entry, headers: { ...entry.headers, etag }, etag, body };
      if (this.set(key, generation, copy, entry.tags, expires)) this.updates++;
    }
  }

  invalidate(): void {
    this.touch([ANY_CHANGE]);
  }

  /** The body in the best encoding the client accepts, compressed once and kept. */
  body(entry: CachedResponse, acceptEncoding: string | undefined): { encoding: Encoding; body: Buffer } {
    const identity = entry.bodies.identity!;
    const encoding = identity.length < this.threshold ? 'identity' : pickEncoding(acceptEncoding);
    let body = entry.bodies[encoding];
    if (!body) {
      body = compress(identity, encoding);
      if (entry.gone) return { encoding, body };
      entry.bodies[encoding] = body;
      this.bytesUsed += body.length;
      this.shrink();
    }
    return { encoding, body };
  }

  /** A one-off body (not kept) in the best encoding the client accepts. */
  encode(identity: Buffer, acceptEncoding: string | undefined): { encoding: Encoding; body: Buffer } {
    const encoding = identity.length < this.threshold ? 'identity' : pickEncoding(acceptEncoding);
    return { encoding, body: compress(identity, encoding) };
  }

  /**
   * The entries showing an added row that can take it in, with their new bodies. Only an entry
   * whose data was read before the write began is sure not to show the row already (a read on
   * another PostgreSQL connection may see a commit before this instance hears of it); any other,
   * or one its route cannot update, is dropped by the touch.
   */
  private takeIn(added: readonly Addition[]): [string, Update][] {
    const updates = new Map<string, Update | null>();
    for (const row of added) {
      for (const key of this.store.keysOf(row.tag)) {
        const before = updates.has(key) ? updates.get(key)! : this.updatable(key);
        const body = before && before.entry.readAt! < row.since ? patched(before, key, row.value) : undefined;
        updates.set(key, body === undefined ? null : { ...before!, body });
      }
    }
    return [...updates].filter((u): u is [string, Update] => u[1] !== null);
  }

  private updatable(key: string): Update | null {
    const held = this.store.peek(key);
    if (!held?.value.patch || held.value.readAt === undefined) return null;
    return { entry: held.value, body: held.value.text, expires: held.expires };
  }

  private shrink(): void {
    while (this.bytesUsed > this.maxBytes && this.store.size > 0) this.store.evictOldest();
  }
}

/** The route's patch, run inside the writer's commit: a body it cannot read is dropped, never a failed write. */
function patched({ entry, body }: Update, key: string, value: unknown): string | undefined {
  try {
    return entry.patch!(key, body, value);
  } catch {
    return undefined;
  }
}
