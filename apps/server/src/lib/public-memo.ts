import type { PublicDataChanges } from './public-data';

/**
 * A bounded in-memory copy of public values (a published blog's page), dropped whenever public
 * data changes. Read `generation` before loading a value and pass it to set(): a value loaded
 * before a change that lands after it is refused.
 */
export class PublicMemo<V> {
  private readonly values = new Map<string, V>();
  private gen = 0;

  constructor(
    changes: PublicDataChanges,
    private readonly maxEntries = 2000,
  ) {
    changes.on(() => {
      this.gen++;
      this.values.clear();
    });
  }

  get generation(): number {
    return this.gen;
  }

  get(key: string): V | undefined {
    return this.values.get(key);
  }

  set(key: string, generation: number, value: V): void {
    if (generation !== this.gen) return;
    if (this.values.size >= this.maxEntries) this.values.delete(this.values.keys().next().value as string);
    this.values.set(key, value);
  }
}
