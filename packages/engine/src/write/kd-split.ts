// k-d splitting of rows for dynamic partitioning: recursive median splits over the split keys of the indexed columns.
import { type Data, type Field, makeData } from 'apache-arrow';
import { taskColumn } from '../exec/arrays.js';
import { gather } from '../exec/gather.js';
import { selectKth } from './select-kth.js';

/**
 * Groups rows [0, n) into leaves of at most `maxRows` rows: each step splits a group at the median
 * key of the column whose keys spread widest relative to the whole input (k-d tree style), so the
 * leaves cover compact, disjoint key ranges (`totalSpans`: each key's spread over the whole table, NaN: unknown, use the input's). Rows keep their relative order within a leaf. A group
 * whose keys are all equal is cut by position.
 */
export function kdSplit(keys: readonly Float64Array[], n: number, maxRows: number, totalSpans?: readonly number[]): Int32Array[] {
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  // relative to the whole table when known: a merge of time-ordered deltas spans little time, so it splits on the others
  const spans = keys.map((k, d) => (totalSpans && Number.isFinite(totalSpans[d]) ? totalSpans[d]! : spread(k, all)));
  const leaves: Int32Array[] = [];
  const stack: Int32Array[] = [all];
  while (stack.length > 0) {
    const rows = stack.pop()!;
    if (rows.length <= maxRows) {
      leaves.push(rows);
      continue;
    }
    const [left, right] = splitOnce(keys, spans, rows);
    stack.push(right, left);
  }
  return leaves;
}

/** The rows `sel` of each column, as new contiguous chunks. */
export function takeRows(fields: readonly Field[], columns: readonly Data[], sel: Int32Array): Data[] {
  return fields.map((f, i) => {
    const c = gather(taskColumn(columns[i]!), sel, sel.length);
    return makeData({
      type: f.type,
      length: sel.length,
      nullCount: c.nullCount,
      nullBitmap: c.validity ?? undefined,
      data: c.values,
      valueOffsets: c.offsets ?? undefined,
    } as never);
  });
}

// one split: the widest dimension (relative to its overall spread), at its median
function splitOnce(keys: readonly Float64Array[], spans: readonly number[], rows: Int32Array): [Int32Array, Int32Array] {
  let best = -1;
  let bestSpread = 0;
  keys.forEach((k, d) => {
    const s = spread(k, rows) / (spans[d]! || 1);
    if (s > bestSpread) [best, bestSpread] = [d, s];
  });
  const half = rows.length >> 1;
  if (best >= 0) {
    const k = keys[best]!;
    const groupKeys = new Float64Array(rows.length);
    for (let j = 0; j < rows.length; j++) groupKeys[j] = k[rows[j]!]!;
    const median = selectKth(groupKeys, half); // NaN (no key) last
    // counted first, then written straight into the two halves (no growing arrays of boxed rows)
    let below = 0;
    for (let j = 0; j < rows.length; j++) if (k[rows[j]!]! < median) below++;
    if (below > 0 && below < rows.length) {
      const left = new Int32Array(below);
      const right = new Int32Array(rows.length - below);
      let [l, r] = [0, 0];
      for (let j = 0; j < rows.length; j++) {
        const row = rows[j]!;
        if (k[row]! < median) left[l++] = row;
        else right[r++] = row;
      }
      return [left, right];
    }
  }
  return [rows.slice(0, half), rows.slice(half)];
}

// max - min of the keys of `rows`, ignoring NaN (0 when fewer than two keys)
function spread(k: Float64Array, rows: Int32Array): number {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < rows.length; j++) {
    const v = k[rows[j]!]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return max > min ? max - min : 0;
}
