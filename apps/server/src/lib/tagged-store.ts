/** The tag of a value that depends on anything public: every change drops it. */
export const ANY_CHANGE = '*';

export interface TaggedStoreOptions<V> {
  maxEntries: number;
  /** Every value is dropped this long after it was stored, so a change nobody was told about heals by itself. */
  ttlMs: number;
  /** Called for every value leaving the store (byte accounting). */
  onRemove?: (value: V) => void;
  now?: () => number;
  /**
   * Tags whose change leaves a value servable this much longer instead of dropping it (the
   * counts on list cards, see lib/public-tags.ts `countsTag`): a burst of likes on a hot post
   * then costs one recomputation of each list page per lag instead of one per like.
   */
  lag?: { isLagTag: (tag: string) => boolean; ms: number };
}

interface Slot<V> {
  value: V;
  tags: readonly string[];
  expires: number;
  /** Set by a change to a lag tag: the value is dropped when read after this time. */
  staleAfter?: number;
}

/** Tag versions kept before the oldest are forgotten (a computation older than that is refused). */
const MAX_TOUCHED_TAGS = 10_000;

/**
 * An in-memory LRU of public values, each tagged with what it shows ("post:<blogId>",
 * "profile:<username>", "lists"). A change drops only the values carrying one of its tags
 * (and those tagged ANY_CHANGE). A value computed before a change that lands after it is
 * refused: read `generation` before computing it and pass it to set().
 */
export class TaggedStore<V> {
  private readonly slots = new Map<string, Slot<V>>();
  private readonly byTag = new Map<string, Set<string>>();
  /** The version at which each tag was last touched. */
  private readonly touched = new Map<string, number>();
  /** When each lag tag was last touched (alongside its version in `touched`). */
  private readonly touchedAt = new Map<string, number>();
  private version = 0;
  /** Computations started before this version are refused (touched tags were forgotten, or all was dropped). */
  private floor = 0;
  /** The version of the last change of any kind (ANY_CHANGE values depend on all of them). */
  private lastChange = 0;
  private readonly now: () => number;

  constructor(private readonly options: TaggedStoreOptions<V>) {
    this.now = options.now ?? Date.now;
  }

  get generation(): number {
    return this.version;
  }

  get size(): number {
    return this.slots.size;
  }

  get(key: string): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    const now = this.now();
    if (slot.expires <= now || (slot.staleAfter !== undefined && slot.staleAfter <= now)) {
      this.delete(key);
      return undefined;
    }
    // Re-insert: Map order is the LRU order.
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** The keys of the values showing `tag` (none for ANY_CHANGE values: they show everything). */
  keysOf(tag: string): readonly string[] {
    const keys = this.byTag.get(tag);
    return keys ? [...keys] : [];
  }

  /**
   * The value at `key` with its TTL, without counting it as used, while it is served as it is:
   * undefined when it is gone, expired, or waiting out a lag tag's change (see `lag`).
   */
  peek(key: string): { value: V; expires: number } | undefined {
    const slot = this.slots.get(key);
    if (!slot || slot.expires <= this.now() || slot.staleAfter !== undefined) return undefined;
    return { value: slot.value, expires: slot.expires };
  }

  /** When the key's value stops being served (its TTL), if it is held. */
  expiresAt(key: string): number | undefined {
    return this.slots.get(key)?.expires;
  }

  /**
   * Stores the value unless something it shows changed since `generation`; true when stored.
   * `expires` keeps an earlier value's TTL (a copy of it with other counts).
   * A value computed before a change to one of its lag tags is kept only until that change's lag ends.
   */
  set(key: string, generation: number, value: V, tags: readonly string[] = [ANY_CHANGE], expires?: number): boolean {
    if (this.changedSince(generation, tags)) return false;
    const staleAfter = this.lagEndSince(generation, tags);
    if (staleAfter !== undefined && staleAfter <= this.now()) return false;
    this.delete(key);
    this.slots.set(key, { value, tags, expires: expires ?? this.now() + this.options.ttlMs, staleAfter });
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      if (keys) keys.add(key);
      else this.byTag.set(tag, new Set([key]));
    }
    while (this.slots.size > this.options.maxEntries) this.evictOldest();
    return true;
  }

  /**
   * Drops the values showing any of these tags (a lag tag marks them to be dropped after the
   * lag instead); ANY_CHANGE among them drops everything.
   */
  touch(tags: readonly string[]): void {
    if (tags.includes(ANY_CHANGE)) {
      this.clear();
      return;
    }
    this.version++;
    this.lastChange = this.version;
    if (this.touched.size + tags.length > MAX_TOUCHED_TAGS) {
      this.touched.clear();
      this.touchedAt.clear();
      this.floor = this.version;
    }
    const now = this.now();
    for (const tag of [...tags, ANY_CHANGE]) {
      this.touched.set(tag, this.version);
      const keys = this.byTag.get(tag);
      if (this.isLagTag(tag)) {
        this.touchedAt.set(tag, now);
        const staleAfter = now + this.options.lag!.ms;
        if (keys) for (const key of keys) this.markStale(key, staleAfter);
      } else if (keys) for (const key of [...keys]) this.delete(key);
    }
  }

  clear(): void {
    this.version++;
    this.lastChange = this.version;
    this.floor = this.version;
    this.touched.clear();
    this.touchedAt.clear();
    for (const key of [...this.slots.keys()]) this.delete(key);
  }

  evictOldest(): void {
    const oldest = this.slots.keys().next();
    if (!oldest.done) this.delete(oldest.value);
  }

  delete(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.slots.delete(key);
    for (const tag of slot.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
    this.options.onRemove?.(slot.value);
  }

  private isLagTag(tag: string): boolean {
    return this.options.lag?.isLagTag(tag) ?? false;
  }

  private markStale(key: string, staleAfter: number): void {
    const slot = this.slots.get(key);
    if (slot && (slot.staleAfter === undefined || slot.staleAfter > staleAfter)) slot.staleAfter = staleAfter;
  }

  /** Whether a tag the value shows (other than a lag tag) changed since `generation`. */
  private changedSince(generation: number, tags: readonly string[]): boolean {
    if (generation < this.floor) return true;
    if (tags.includes(ANY_CHANGE)) return this.lastChange > generation;
    return tags.some((tag) => !this.isLagTag(tag) && (this.touched.get(tag) ?? 0) > generation);
  }

  /** When a value computed at `generation` must go because a lag tag of it changed since; undefined if none did. */
  private lagEndSince(generation: number, tags: readonly string[]): number | undefined {
    let end: number | undefined;
    for (const tag of tags) {
      if (!this.isLagTag(tag) || (this.touched.get(tag) ?? 0) <= generation) continue;
      const at = this.touchedAt.get(tag)! + this.options.lag!.ms;
      if (end === undefined || at < end) end = at;
    }
    return end;
  }
}
