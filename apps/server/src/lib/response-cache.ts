import { COMPRESS_THRESHOLD, compressBody as compress, type Encoding, pickEncoding } from './compression';
import { isCountsTag } from './public-tags';
import { ANY_CHANGE, TaggedStore } from './tagged-store';

export type { Encoding };

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

  /** Drops the entries showing any of these tags. */
  touch(tags: readonly string[]): void {
    this.invalidations++;
    this.store.touch(tags);
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

  private shrink(): void {
    while (this.bytesUsed > this.maxBytes && this.store.size > 0) this.store.evictOldest();
  }
}
