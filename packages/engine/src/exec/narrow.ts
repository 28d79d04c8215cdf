// Row ranges of sorted partitions: the rows of a partition ordered by a column that a filter can match, found by binary search.
import type { ZoneMaps } from '../expr/kernel.js';
import { zonePredicate } from '../expr/prune.js';
import type { ScanTask, TaskColumn } from './task.js';

/**
 * The rows [lo, hi) of a partition sorted by `task.sortedBy` (ascending, nulls and NaN last) outside
 * of which no row can match the filter, with lo and hi multiples of 8 (or hi = length) so bitmaps
 * sub-view at byte boundaries; null when the filter does not narrow the partition. Each probe asks
 * the zone-map pruning whether the filter can hold on rows whose sort column lies in
 * [values[i], values[j - 1]] (the other columns unknown), so it narrows exactly as soundly as pruning.
 * @example
 * sortedRange({ ...task, sortedBy: 'depth' }) // [249_992, 250_000] for 'depth > 5994' on a leaf ending at 5994.5
 */
export function sortedRange(task: ScanTask): readonly [number, number] | null {
  const name = task.sortedBy;
  const col = name === undefined ? undefined : task.columns[name];
  if (task.filter === null || col === undefined || !searchable(col)) return null;
  const can = zonePredicate(task.filter.typed);
  const values = col.values as ArrayLike<number>;
  const n = task.length;
  const valid = (i: number) => values[i] === values[i] && (col.validity === null || ((col.validity[i >> 3]! >> (i & 7)) & 1) === 1);
  // [0, m): non-null, non-NaN values ascending; [m, n): nulls and NaN
  const m = search(0, n, (i) => !valid(i));
  const block = (i: number, j: number): ZoneMaps => ({ [name!]: { min: values[i]!, max: values[j - 1]!, nullCount: 0, rows: j - i, nanCount: 0 } });
  const lo = search(0, m, (k) => can(block(0, k + 1))); // first row whose prefix can match
  let hi = search(lo, m, (k) => !can(block(k, m))); // first row whose suffix cannot
  if (m < n && can(tail(name!, col, m, n))) hi = n;
  const [from, to] = [lo & ~7, Math.min(n, (hi + 7) & ~7)];
  return from === 0 && to === n ? null : [from, to];
}

/** The task over rows [lo, hi) only (lo a multiple of 8): sub-views of its columns and deleted rows, positions relative to lo. */
export function narrowTask(task: ScanTask, lo: number, hi: number): ScanTask {
  const columns: Record<string, TaskColumn> = {};
  for (const [name, c] of Object.entries(task.columns)) columns[name] = subColumn(c, lo, hi);
  const bits = (b: Uint8Array) => b.subarray(lo >> 3, (hi + 7) >> 3);
  const deletedRows = task.deletedRows ? task.deletedRows.filter((r) => r >= lo && r < hi).map((r) => r - lo) : task.deletedRows;
  const codes = task.codes ? { codes: task.codes.codes.subarray(lo, hi), keys: task.codes.keys } : undefined;
  return { ...task, length: hi - lo, columns, deleted: task.deleted ? bits(task.deleted) : task.deleted, deletedRows, deletedColumns: null, codes };
}

/** Whether a column can be a sort column: plain number values (not 64-bit, not half floats, which are u16 bits). */
export function searchable(col: TaskColumn): boolean {
  const v = col.values;
  if (!(v instanceof Float64Array || v instanceof Float32Array || v instanceof Int32Array || v instanceof Int16Array || v instanceof Int8Array || v instanceof Uint32Array || v instanceof Uint8Array)) return false;
  return col.width === v.BYTES_PER_ELEMENT;
}

// first index in [from, to) where the monotone `p` holds (false ... false true ... true), else `to`
function search(from: number, to: number, p: (i: number) => boolean): number {
  // the ends first: a one-sided range (`depth > x`) settles one of its two searches in one probe
  if (from >= to || p(from)) return from;
  if (!p(to - 1)) return to;
  let [a, b] = [from + 1, to - 1];
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (p(mid)) b = mid;
    else a = mid + 1;
  }
  return a;
}

// the zone map of the null and NaN rows at the end
function tail(name: string, col: TaskColumn, m: number, n: number): ZoneMaps {
  let nulls = 0;
  if (col.validity !== null) for (let i = m; i < n; i++) nulls += 1 - ((col.validity[i >> 3]! >> (i & 7)) & 1);
  return { [name]: { min: null, max: null, nullCount: nulls, rows: n - m, nanCount: n - m - nulls } };
}

function subColumn(c: TaskColumn, lo: number, hi: number): TaskColumn {
  const validity = c.validity === null ? null : c.validity.subarray(lo >> 3, (hi + 7) >> 3);
  const sub = { validity, nullCount: c.nullCount, width: c.width, owned: false, offsets: null };
  if (c.width === -1) return { ...sub, values: c.values, offsets: c.offsets!.subarray(lo, hi + 1) };
  const v = c.values as Uint8Array;
  if (c.width === 0) return { ...sub, values: v.subarray(lo >> 3, (hi + 7) >> 3) };
  const stride = c.width / v.BYTES_PER_ELEMENT;
  return { ...sub, values: v.subarray(lo * stride, hi * stride) };
}
