// A byte-bounded LRU of decoded column chunks held in SharedArrayBuffers, shared with scan workers.
import type { Data } from 'apache-arrow';

/** A decoded column chunk of one partition. `bytes` is what it costs in memory. */
export interface CachedColumn {
  readonly data: Data;
  readonly bytes: number;
}

/** LRU by bytes; entries are keyed `${part}/${column}`. */
export class ColumnCache {
  private readonly entries = new Map<string, CachedColumn>();
  private used = 0;

  constructor(readonly budget: number) {}

  get(key: string): CachedColumn | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // move to the most-recently-used end
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** True when the entry is cached; unlike `get`, not a use (the LRU order stays). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Stores an entry unless it alone exceeds the budget; evicts least recently used entries. */
  put(key: string, value: CachedColumn): void {
    if (value.bytes > this.budget) return;
    this.delete(key);
    this.entries.set(key, value);
    this.used += value.bytes;
    this.evict();
  }

  // least recently used entries go until the budget holds
  private evict(): void {
    for (const [k, v] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(k);
      this.used -= v.bytes;
    }
  }

  /**
   * Adds `bytes` to what the entry holding `data` costs (memory living as long as it, like a column
   * sketch) and evicts as `put` does; nothing when `data` is not what `key` caches.
   */
  charge(key: string, data: Data, bytes: number): void {
    const hit = this.entries.get(key);
    if (hit?.data !== data) return;
    this.entries.set(key, { data, bytes: hit.bytes + bytes }); // keeps its place in the LRU order
    this.used += bytes;
    this.evict();
  }

  /** The names of the cached columns of a partition (as cached: a column stored under two names once). */
  columnsOf(part: string): string[] {
    const prefix = `${part}/`;
    return [...this.entries.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  }

  /** Drops every column of a partition (its file is gone or going). */
  dropPart(part: string): void {
    for (const k of [...this.entries.keys()]) if (k.startsWith(`${part}/`)) this.delete(k);
  }

  get bytesUsed(): number {
    return this.used;
  }

  private delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.used -= old.bytes;
  }
}
