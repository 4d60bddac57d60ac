/** The tag of a value that depends on anything public: every change drops it. */
export const ANY_CHANGE = '*';

export interface TaggedStoreOptions<V> {
  maxEntries: number;
  /** Every value is dropped this long after it was stored, so a change nobody was told about heals by itself. */
  ttlMs: number;
  /** Called for every value leaving the store (byte accounting). */
  onRemove?: (value: V) => void;
  now?: () => number;
}

interface Slot<V> {
  value: V;
  tags: readonly string[];
  expires: number;
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
    if (slot.expires <= this.now()) {
      this.delete(key);
      return undefined;
    }
    // Re-insert: Map order is the LRU order.
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** Stores the value unless something it shows changed since `generation`; true when stored. */
  set(key: string, generation: number, value: V, tags: readonly string[] = [ANY_CHANGE]): boolean {
    if (this.changedSince(generation, tags)) return false;
    this.delete(key);
    this.slots.set(key, { value, tags, expires: this.now() + this.options.ttlMs });
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      if (keys) keys.add(key);
      else this.byTag.set(tag, new Set([key]));
    }
    while (this.slots.size > this.options.maxEntries) this.evictOldest();
    return true;
  }

  /** Drops the values showing any of these tags; ANY_CHANGE among them drops everything. */
  touch(tags: readonly string[]): void {
    if (tags.includes(ANY_CHANGE)) {
      this.clear();
      return;
    }
    this.version++;
    this.lastChange = this.version;
    if (this.touched.size + tags.length > MAX_TOUCHED_TAGS) {
      this.touched.clear();
      this.floor = this.version;
    }
    for (const tag of [...tags, ANY_CHANGE]) {
      this.touched.set(tag, this.version);
      const keys = this.byTag.get(tag);
      if (keys) for (const key of [...keys]) this.delete(key);
    }
  }

  clear(): void {
    this.version++;
    this.lastChange = this.version;
    this.floor = this.version;
    this.touched.clear();
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

  private changedSince(generation: number, tags: readonly string[]): boolean {
    if (generation < this.floor) return true;
    if (tags.includes(ANY_CHANGE)) return this.lastChange > generation;
    return tags.some((tag) => (this.touched.get(tag) ?? 0) > generation);
  }
}
