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
  /** The cached column names of each partition (keys split at their first '/'): per-partition questions without a walk of every entry. */
  private readonly byPart = new Map<string, Set<string>>();
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
    const [part, name] = split(key);
    let names = this.byPart.get(part);
    if (!names) this.byPart.set(part, (names = new Set()));
    names.add(name);
    this.used += value.bytes;
    this.evict();
  }

  // least recently used entries go until the budget holds
  private evict(): void {
    for (const [k, v] of this.entries) {
      if (this.used <= this.budget) break;
      this.delete(k, v);
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
    return [...(this.byPart.get(part) ?? [])];
  }

  /** The same names, as the cache's own set (read only; not a use). */
  namesOf(part: string): ReadonlySet<string> {
    return this.byPart.get(part) ?? NONE;
  }

  /** Drops every column of a partition (its file is gone or going). */
  dropPart(part: string): void {
    for (const name of [...(this.byPart.get(part) ?? [])]) this.delete(`${part}/${name}`);
  }

  get bytesUsed(): number {
    return this.used;
  }

  private delete(key: string, old = this.entries.get(key)): void {
    if (!old) return;
    this.entries.delete(key);
    this.used -= old.bytes;
    const [part, name] = split(key);
    const names = this.byPart.get(part);
    names?.delete(name);
    if (names?.size === 0) this.byPart.delete(part);
  }
}

const NONE: ReadonlySet<string> = new Set();

// a key's partition and column (a key without '/' is a partition of its own with the column '')
function split(key: string): [string, string] {
  const at = key.indexOf('/');
  return at < 0 ? [key, ''] : [key.slice(0, at), key.slice(at + 1)];
}
