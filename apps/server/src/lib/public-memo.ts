import type { PublicDataChanges } from './public-data';
import { TaggedStore } from './tagged-store';

/**
 * A bounded in-memory copy of public values (a published blog's page), each tagged with what it
 * shows; a change drops only the values carrying its tags. Read `generation` before loading a
 * value and pass it to set(): a value loaded before a change that lands after it is refused.
 */
export class PublicMemo<V> {
  private readonly store: TaggedStore<V>;
  private readonly whileReliable: boolean;

  constructor(
    private readonly changes: PublicDataChanges,
    options: {
      maxEntries?: number;
      ttlMs?: number;
      /**
       * Keep and answer nothing while another instance's changes may not reach this one
       * (PublicDataChanges.reliable): for copies that decide something (a viewer's flags, the
       * inputs of a write's permission checks) rather than only save a read of public data.
       */
      whileReliable?: boolean;
    } = {},
  ) {
    this.store = new TaggedStore<V>({ maxEntries: options.maxEntries ?? 2000, ttlMs: options.ttlMs ?? 60_000 });
    this.whileReliable = options.whileReliable ?? false;
    changes.on((tags) => this.store.touch(tags));
  }

  private get usable(): boolean {
    return !this.whileReliable || this.changes.reliable;
  }

  get generation(): number {
    return this.store.generation;
  }

  get(key: string): V | undefined {
    return this.usable ? this.store.get(key) : undefined;
  }

  set(key: string, generation: number, value: V, tags: readonly string[]): void {
    if (this.usable) this.store.set(key, generation, value, tags);
  }
}
