// The leaves of a tier merge: a k-d split of the merged rows over the indexed columns' keys, each leaf sorted by one key; plain code, run on the part writer thread or inline.
import type { Data, Schema } from 'apache-arrow';
import { taskColumn } from '../exec/arrays.js';
import { searchable } from '../exec/narrow.js';
import { kdSplit } from './kd-split.js';
import { splitColumns } from './split-key.js';

/** How a tier merge's rows are cut into leaves. */
export interface TierSplit {
  /** Rows per leaf, at most. */
  readonly leafRows: number;
  /** Each one-key split column's range over the whole table (its zone maps), by name; others use the merge's own spread. */
  readonly spans: Readonly<Record<string, number>>;
}

/** The leaves of a merge: `leaves[L]` are the merged rows of leaf L in its order; `at[m]`: row of merged row m in its leaf. */
export interface TierLeaves {
  readonly leaves: Int32Array[];
  readonly at?: Uint32Array;
  /** The column each leaf is ordered by (a scan binary-searches it), if any. */
  readonly sortedBy?: string;
}

/**
 * Splits `rows` merged rows (`columns`, in schema order) into leaves of at most `split.leafRows` rows
 * over the split keys of the indexed columns (`split-key.ts`), k-d style, each leaf's rows ordered by
 * the first indexed column with one key a scan can binary-search. `alloc` makes `at`'s memory.
 */
export function tierLeaves(schema: Schema, columns: readonly Data[], rows: number, split: TierSplit, alloc: (bytes: number) => ArrayBufferLike = (n) => new ArrayBuffer(n)): TierLeaves {
  const keys: Float64Array[] = [];
  const spans: number[] = [];
  let order: { name: string; key: Float64Array } | null = null;
  for (const c of splitColumns(schema.fields)) {
    const data = columns[schema.fields.findIndex((f) => f.name === c.name)]!;
    const dims = c.key(data);
    if (order === null && dims.length === 1 && searchable(taskColumn(data))) order = { name: c.name, key: dims[0]! };
    keys.push(...dims);
    // one dimension: the column's range over the table; several (a geometry's centre): their own spread
    spans.push(...(dims.length === 1 ? [split.spans[c.name] ?? Number.NaN] : dims.map(() => Number.NaN)));
  }
  const leaves = kdSplit(keys, rows, split.leafRows, spans);
  if (!order) return { leaves };
  const sorted = leaves.map((leaf) => sortRows(leaf, order.key));
  return { leaves: sorted, at: positions(sorted, rows, alloc), sortedBy: order.name };
}

/**
 * The rows of a leaf ordered by their keys, ascending, NaN (null) last, ties (and -0, +0) in row
 * order. A sorted leaf lets a scan read only the rows a range filter on the column can match
 * (exec/narrow.ts). An LSD radix sort of the keys' order-preserving 64-bit images, 11 bits a pass:
 * linear, where a comparison sort of a 250k-row leaf costs ~250 ms.
 */
export function sortRows(rows: Int32Array, key: Float64Array): Int32Array {
  const n = rows.length;
  const f = new Float64Array(n);
  for (let j = 0; j < n; j++) f[j] = key[rows[j]!]! + 0; // -0 + 0 is +0
  const w = new Uint32Array(f.buffer); // little-endian words: w[2j] low, w[2j + 1] high
  for (let j = 0; j < n; j++) {
    const hi = w[2 * j + 1]!;
    if (f[j] !== f[j]) w[2 * j] = w[2 * j + 1] = 0xffffffff;
    else if (hi >>> 31) [w[2 * j], w[2 * j + 1]] = [~w[2 * j]!, ~hi];
    else w[2 * j + 1] = hi | 0x80000000;
  }
  // the keys travel with the rows: each pass reads its digits in order
  // (filled by a plain loop: `Int32Array.from` with a mapping function takes ~25 ns a row)
  let [src, lo, hi] = [new Int32Array(n), new Uint32Array(n), new Uint32Array(n)];
  for (let j = 0; j < n; j++) {
    src[j] = j;
    lo[j] = w[2 * j]!;
    hi[j] = w[2 * j + 1]!;
  }
  let [dst, dlo, dhi] = [new Int32Array(n), new Uint32Array(n), new Uint32Array(n)];
  const digits = new Uint16Array(n);
  const count = new Int32Array(BUCKETS + 1);
  for (let shift = 0; shift < 64; shift += DIGIT) {
    count.fill(0);
    for (let j = 0; j < n; j++) {
      const d = (shift < 32 ? (lo[j]! >>> shift) | (shift + DIGIT > 32 ? hi[j]! << (32 - shift) : 0) : hi[j]! >>> (shift - 32)) & (BUCKETS - 1);
      digits[j] = d;
      count[d + 1]!++;
    }
    if (count.some((c) => c === n)) continue; // every key has this digit
    for (let d = 0; d < BUCKETS; d++) count[d + 1]! += count[d]!;
    for (let j = 0; j < n; j++) {
      const at = count[digits[j]!]!++;
      dst[at] = src[j]!;
      dlo[at] = lo[j]!;
      dhi[at] = hi[j]!;
    }
    [src, dst, lo, dlo, hi, dhi] = [dst, src, dlo, lo, dhi, hi];
  }
  for (let j = 0; j < n; j++) dst[j] = rows[src[j]!]!;
  return dst;
}

// radix digits of sortRows: 11 bits, 6 passes over the 64-bit keys (the buckets' write heads stay in cache)
const DIGIT = 11;
const BUCKETS = 1 << DIGIT;

// the row of each merged row in its leaf
function positions(leaves: readonly Int32Array[], rows: number, alloc: (bytes: number) => ArrayBufferLike): Uint32Array {
  const at = new Uint32Array(alloc(rows * 4), 0, rows);
  for (const leaf of leaves) for (let j = 0; j < leaf.length; j++) at[leaf[j]!] = j;
  return at;
}
