import type { PublicDataChanges } from './public-data';
import { TaggedStore } from './tagged-store';

/**
 * A bounded in-memory copy of public values (a published blog's page), each tagged with what it
 * shows; a change drops only the values carrying its tags. Read `generation` before loading a
 * value and pass it to set(): a value loaded before a change that lands after it is refused.
 */
export class PublicMemo<V> {
  private readonly store: TaggedStore<V>;

  constructor(changes: PublicDataChanges, options: { maxEntries?: number; ttlMs?: number } = {}) {
    this.store = new TaggedStore<V>({ maxEntries: options.maxEntries ?? 2000, ttlMs: options.ttlMs ?? 60_000 });
    changes.on((tags) => this.store.touch(tags));
  }

  get generation(): number {
    return this.store.generation;
  }

  get(key: string): V | undefined {
    return this.store.get(key);
  }

  set(key: string, generation: number, value: V, tags: readonly string[]): void {
    this.store.set(key, generation, value, tags);
  }
}
