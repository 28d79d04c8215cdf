// Deletion vectors: a commit's deleted row positions per partition, and the bitmaps scans apply.
import type { StoreContext } from '../context.js';
import type { DeleteRecord } from '../storage/records.js';
import { markPositions } from './positions.js';
import { sharedBuffer } from '../exec/shared-memory.js';

/** The rows of one partition that a reader must skip: bit i set = row i is deleted. */
export interface Deleted {
  /** LSB-first bitmap over the partition's rows, in a SharedArrayBuffer (workers read it in place). */
  readonly bits: Uint8Array;
  readonly count: number;
  /**
   * The same rows as ascending positions (SharedArrayBuffer), when known: a count subtracts the
   * matches among them instead of filtering every row through the bitmap. Unions made by
   * `deletedOf` compute it on first use (a delete or a plain select never needs it).
   */
  readonly rows?: Int32Array;
}

/** An empty bitmap over `length` rows. */
export function emptyBits(length: number): Uint8Array {
  return new Uint8Array(sharedBuffer(Math.max(8, ((length + 63) >> 6) << 3)));
}

/**
 * Sets the bit of each of `rows` in `bits`, moving the rows whose bit was clear to the front of
 * `rows` (in order) and returning how many there are. A plain loop over typed arrays: its optimised
 * code holds no object that dies, so it stays optimised from one delete to the next.
 */
export function markRows(bits: Uint8Array, rows: Int32Array): number {
  let n = 0;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]!;
    const at = row >> 3;
    const mask = 1 << (row & 7);
    const byte = bits[at]!;
    rows[n] = row;
    n += +((byte & mask) === 0); // branch-free: already-deleted rows are rare or frequent, never predictable
    bits[at] = byte | mask;
  }
  return n;
}

/**
 * Sets the bits of `rows[from]`, `rows[from + 1]`, ... up to the first row whose bit is set already
 * (left as it is) or the end; returns that row's index (`rows.length` at the end). A plain function
 * over typed arrays (a replace marks each partition's matches with it): a method reading its arrays
 * from `this` deoptimised on the markers' shapes and ran 100k rows in the interpreter (~5-16 ms).
 */
export function markRun(bits: Uint8Array, rows: Int32Array, from: number): number {
  let i = from;
  for (; i < rows.length; i++) {
    const row = rows[i]!;
    const mask = 1 << (row & 7);
    const byte = bits[row >> 3]!;
    if ((byte & mask) !== 0) break;
    bits[row >> 3] = byte | mask;
  }
  return i;
}

export const isDeleted = (bits: Uint8Array, row: number): boolean => ((bits[row >> 3]! >> (row & 7)) & 1) === 1;

export function setDeleted(bits: Uint8Array, row: number): void {
  bits[row >> 3]! |= 1 << (row & 7);
}

/**
 * The union of a partition's deletion records visible to one reader, cached per process: records
 * are immutable, so their keys (`keys`, ascending by version) identify the union. When a cached
 * union covers a prefix of `keys` (the same partition before a later delete), only the newer
 * records are read and applied to a copy of it. `read` fetches one record by key.
 */
export function deletedOf(ctx: StoreContext, part: string, rows: number, keys: readonly string[], read: (key: string) => DeleteRecord | undefined): Deleted {
  const cache = cacheOf(ctx);
  const id = `${part}|${keys.length}|${keys[keys.length - 1] ?? ''}`;
  const hit = cache.unions.get(id);
  if (hit) return hit;
  const prev = cache.latest.get(part);
  const grows = prev !== undefined && prev.keys.length < keys.length && prev.keys.every((k, i) => keys[i] === k);
  const seeded = seedFor(cache, keys, prev, grows, read);
  const bits = seeded?.bits ?? emptyBits(rows);
  let count = seeded?.count ?? 0;
  if (seeded) {
    // the committer's bitmap is this union already
  } else if (grows) {
    bits.set(prev.deleted.bits);
    count = prev.deleted.count;
  }
  for (const key of seeded ? [] : grows ? keys.slice(prev!.keys.length) : keys) {
    const r = read(key);
    if (!r) continue;
    count += markPositions(bits, r.rows);
  }
  let list: Int32Array | undefined;
  const out: Deleted = {
    bits,
    count,
    get rows() {
      return (list ??= positions(bits, rows, count));
    },
  };
  if (cache.unions.size >= 256) cache.unions.delete(cache.unions.keys().next().value!);
  cache.unions.set(id, out);
  if (!prev || prev.keys.length <= keys.length) cache.latest.set(part, { keys: [...keys], deleted: out });
  if (cache.latest.size > 256) cache.latest.delete(cache.latest.keys().next().value!);
  return out;
}

/**
 * What a committer knows after writing deletion record `key` (of `rows` rows) on top of the union
 * `base` (undefined: the partition had no deletions): the union with the record is `bits` holding
 * `count` rows, its own bitmap, never written again. The next `deletedOf` that extends exactly
 * `base` by exactly that record takes `bits` as it is instead of copying `base` and decoding the record.
 */
export function seedDeleted(ctx: StoreContext, key: string, seed: { base: Deleted | undefined; bits: Uint8Array; count: number; rows: number }): void {
  const seeds = cacheOf(ctx).seeds;
  if (seeds.size >= 1024) seeds.delete(seeds.keys().next().value!);
  seeds.set(key, seed);
}

// a seed applies when the union grows by its record alone from the union it was made on; the
// record must hold exactly the committer's rows (none forwarded into it from elsewhere)
function seedFor(cache: UnionCache, keys: readonly string[], prev: Latest | undefined, grows: boolean, read: (key: string) => DeleteRecord | undefined): { bits: Uint8Array; count: number } | undefined {
  const key = keys[keys.length - 1];
  const seed = key === undefined ? undefined : cache.seeds.get(key);
  if (!seed) return undefined;
  cache.seeds.delete(key!);
  const extendsBase = seed.base === undefined ? keys.length === 1 : grows && prev!.deleted === seed.base && keys.length === prev!.keys.length + 1;
  if (!extendsBase || read(key!)?.count !== seed.rows) return undefined;
  return seed;
}

/** The positions of the set bits of `bits` (a bitmap over `rows` rows holding `count` of them), ascending. */
export function positions(bits: Uint8Array, rows: number, count: number): Int32Array {
  const out = new Int32Array(sharedBuffer(Math.max(4, count * 4)), 0, count);
  let n = 0;
  // 32 rows per step (LSB-first bytes read as a little-endian word), one step per set bit
  const aligned = bits.byteOffset % 4 === 0;
  const words = aligned ? new Uint32Array(bits.buffer, bits.byteOffset, bits.length >> 2) : null;
  const whole = words ? words.length << 2 : 0;
  for (let w = 0; words !== null && w < words.length && n < count; w++) {
    let word = words[w]!;
    while (word !== 0 && n < count) {
      const low = word & -word;
      const row = (w << 5) + 31 - Math.clz32(low);
      if (row >= rows) break;
      out[n++] = row;
      word ^= low;
    }
  }
  for (let b = whole; b < bits.length && n < count; b++) {
    const byte = bits[b]!;
    for (let k = 0; k < 8; k++) if ((byte >> k) & 1 && (b << 3) + k < rows) out[n++] = (b << 3) + k;
  }
  return out;
}

/** The positions of the clear bits of `bits` below `rows` (the rows that survive its deletions), ascending. */
export function survivors(bits: Uint8Array, rows: number): Int32Array {
  const out = new Int32Array(rows);
  let n = 0;
  const whole = rows >> 3;
  // a byte at a time: its clear bits, lowest first (8 rows per step, one step per survivor)
  for (let b = 0; b < whole; b++) {
    let live = ~bits[b]! & 0xff;
    while (live !== 0) {
      const low = live & -live;
      out[n++] = (b << 3) + 31 - Math.clz32(low);
      live ^= low;
    }
  }
  for (let r = whole << 3; r < rows; r++) if (((bits[r >> 3]! >> (r & 7)) & 1) === 0) out[n++] = r;
  return n === rows ? out : out.slice(0, n);
}

/** The first row present in both sorted lists, or -1. */
export function firstCommon(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! === b[j]!) return a[i]!;
    if (a[i]! < b[j]!) i++;
    else j++;
  }
  return -1;
}

interface Latest {
  readonly keys: readonly string[];
  readonly deleted: Deleted;
}

interface UnionCache {
  /** Unions by partition and record keys. */
  readonly unions: Map<string, Deleted>;
  /** The union over the most records seen per partition, which a later one extends. */
  readonly latest: Map<string, Latest>;
  /** Unions committers made, by the key of the record they wrote (see `seedDeleted`). */
  readonly seeds: Map<string, { readonly base: Deleted | undefined; readonly bits: Uint8Array; readonly count: number; readonly rows: number }>;
}

const caches = new WeakMap<StoreContext, UnionCache>();

function cacheOf(ctx: StoreContext): UnionCache {
  let c = caches.get(ctx);
  if (!c) caches.set(ctx, (c = { unions: new Map(), latest: new Map(), seeds: new Map() }));
  return c;
}
