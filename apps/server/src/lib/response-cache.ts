import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

/** A ready-to-send anonymous response: its headers and body in each encoding asked for so far. */
export interface CachedResponse {
  headers: Record<string, string>;
  etag: string;
  bodies: Partial<Record<Encoding, Buffer>>;
  /** The JSON text, for answers made from this one (a signed-in reader's blog page). */
  text: string;
}

export interface ResponseCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
  /** Bodies below this stay uncompressed, as @fastify/compress does. */
  compressThreshold?: number;
}

/**
 * An in-memory LRU of anonymous API responses, keyed by URL. Whole-cache invalidation is the
 * rule: any committed write to public data bumps the generation and empties it, which cannot
 * miss a dependency (a like changes the feed, the blog page, the author's profile counts…).
 * A response computed before a write that lands after it is refused by the generation check.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;
  private gen = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly threshold: number;
  hits = 0;
  misses = 0;
  invalidations = 0;

  constructor(options: ResponseCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 5000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.threshold = options.compressThreshold ?? 1024;
  }

  /** Read before computing a response; pass it back to set(). */
  get generation(): number {
    return this.gen;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-insert: Map order is the LRU order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, generation: number, entry: Omit<CachedResponse, 'bodies' | 'text'> & { body: string }): void {
    if (generation !== this.gen) return;
    const body = Buffer.from(entry.body);
    if (body.length > this.maxBytes / 16) return;
    this.remove(key);
    this.entries.set(key, { headers: entry.headers, etag: entry.etag, bodies: { identity: body }, text: entry.body });
    this.bytes += body.length * 2; // the Buffer and the text
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      this.remove(this.entries.keys().next().value as string);
    }
  }

  invalidate(): void {
    this.invalidations++;
    this.gen++;
    this.entries.clear();
    this.bytes = 0;
  }

  /** The body in the best encoding the client accepts, compressed once and kept. */
  body(entry: CachedResponse, acceptEncoding: string | undefined): { encoding: Encoding; body: Buffer } {
    const identity = entry.bodies.identity!;
    const encoding = identity.length < this.threshold ? 'identity' : pickEncoding(acceptEncoding);
    let body = entry.bodies[encoding];
    if (!body) {
      body = compress(identity, encoding);
      entry.bodies[encoding] = body;
      this.bytes += body.length;
    }
    return { encoding, body };
  }

  /** A one-off body (not kept) in the best encoding the client accepts. */
  encode(identity: Buffer, acceptEncoding: string | undefined): { encoding: Encoding; body: Buffer } {
    const encoding = identity.length < this.threshold ? 'identity' : pickEncoding(acceptEncoding);
    return { encoding, body: compress(identity, encoding) };
  }

  private remove(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    for (const b of Object.values(old.bodies)) this.bytes -= b.length;
    this.bytes -= old.bodies.identity!.length;
  }
}

/** Settings as @fastify/compress uses them. */
function compress(identity: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'br') return brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  if (encoding === 'gzip') return gzipSync(identity, { level: 6 });
  return identity;
}

// An encoding named in Accept-Encoding and not refused with q=0.
const ACCEPTS_BR = /(^|[\s,])br(?![^,]*;\s*q=0(\.0*)?\s*(,|$))/i;
const ACCEPTS_GZIP = /(^|[\s,])gzip(?![^,]*;\s*q=0(\.0*)?\s*(,|$))/i;

export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  if (ACCEPTS_BR.test(acceptEncoding)) return 'br';
  if (ACCEPTS_GZIP.test(acceptEncoding)) return 'gzip';
  return 'identity';
}
