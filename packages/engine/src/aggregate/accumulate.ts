// Per-group sums, counts, minima and maxima of one field over (row, group) pairs.
import type { TaskColumn } from '../exec/task.js';
import type { FieldPartial } from './partial.js';

/**
 * Accumulates `col` over the pairs (row `rows[p]` or `p`, group `gids[p]`): Neumaier-compensated
 * sums, non-null counts, minima and maxima per group (-0 below +0, NaN propagating into sums and
 * ignored by min/max). Non-numeric columns get non-null counts only.
 */
export function accumulate(col: TaskColumn, physical: string, rows: Int32Array | null, gids: Int32Array, pairs: number, groups: number): FieldPartial {
  if (!/^(u?int|float|date32)/.test(physical)) return countOnly(col.validity, rows, gids, pairs, groups);
  const values = col.values;
  // one kernel over Float64Array (other number types converted once), so it stays monomorphic
  const f64 = values instanceof Float64Array ? values : asFloat64(values as ArrayLike<number | bigint>);
  // a group's five accumulators side by side: one cache line per row however many groups there are
  const acc = new Float64Array(groups * STRIDE);
  for (let g = 0; g < groups; g++) (acc[g * STRIDE + MIN] = Infinity), (acc[g * STRIDE + MAX] = -Infinity);
  accumulateF64(f64, col.validity, rows, gids, pairs, acc);
  const side = (k: number): Float64Array => {
    const out = new Float64Array(groups);
    for (let g = 0; g < groups; g++) out[g] = acc[g * STRIDE + k]!;
    return out;
  };
  return { sum: side(SUM), comp: side(COMP), n: side(N), min: side(MIN), max: side(MAX) };
}

const STRIDE = 5;
const [SUM, COMP, N, MIN, MAX] = [0, 1, 2, 3, 4];

function accumulateF64(values: Float64Array, validity: Uint8Array | null, rows: Int32Array | null, gids: Int32Array, pairs: number, acc: Float64Array): void {
  for (let p = 0; p < pairs; p++) {
    const r = rows === null ? p : rows[p]!;
    if (validity !== null && ((validity[r >> 3]! >> (r & 7)) & 1) === 0) continue;
    const v = values[r]!;
    const a = gids[p]! * 5;
    // Neumaier's compensated sum
    const s = acc[a]!;
    const t = s + v;
    acc[a + 1]! += Math.abs(s) >= Math.abs(v) ? s - t + v : v - t + s;
    acc[a] = t;
    acc[a + 2]!++;
    // -0 is below +0 (as Math.min/max), so the result does not depend on row or partition order
    const lo = acc[a + 3]!;
    if (v < lo || (v === 0 && lo === 0 && 1 / v < 0)) acc[a + 3] = v;
    const hi = acc[a + 4]!;
    if (v > hi || (v === 0 && hi === 0 && 1 / v > 0)) acc[a + 4] = v;
  }
}

function asFloat64(values: ArrayLike<number | bigint>): Float64Array {
  const out = new Float64Array(values.length);
  if (values instanceof BigInt64Array || values instanceof BigUint64Array) for (let i = 0; i < values.length; i++) out[i] = Number(values[i]!);
  else out.set(values as ArrayLike<number>);
  return out;
}

// non-null values per group (strings, bools, ...); sum/min/max are NaN (never reported)
function countOnly(validity: Uint8Array | null, rows: Int32Array | null, gids: Int32Array, pairs: number, groups: number): FieldPartial {
  const cnt = new Float64Array(groups);
  for (let p = 0; p < pairs; p++) {
    const r = rows === null ? p : rows[p]!;
    if (validity === null || ((validity[r >> 3]! >> (r & 7)) & 1) === 1) cnt[gids[p]!]!++;
  }
  return { sum: new Float64Array(groups).fill(NaN), comp: new Float64Array(groups), n: cnt, min: new Float64Array(groups).fill(NaN), max: new Float64Array(groups).fill(NaN) };
}
