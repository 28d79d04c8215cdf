// Row ranges of sorted partitions: the rows of a partition ordered by a column that a filter can match, found by binary search.
import type { CompareOp } from '../expr/ast.js';
import type { ZoneMaps } from '../expr/kernel.js';
import type { TypedColumn, TypedExpr } from '../expr/typed.js';
import { zonePredicate } from '../expr/prune.js';
import type { ScanTask, TaskColumn } from './task.js';

/**
 * The rows [lo, hi) of a partition sorted by each of `task.sortedBy` (ascending, nulls and NaN last)
 * outside of which no row can match the filter, with lo and hi multiples of 8 (or hi = length) so
 * bitmaps sub-view at byte boundaries; null when the filter does not narrow the partition. Each sort
 * column the filter bounds gives a range, and the rows are in all of them: a filter that bounds the
 * column by number literals (`interval`) takes two binary searches on the values; any other takes
 * `probedRange`'s.
 * @example
 * sortedRange({ ...task, sortedBy: ['depth'] }) // [249_992, 250_000] for 'depth > 5994' on a leaf ending at 5994.5
 */
export function sortedRange(task: ScanTask): readonly [number, number] | null {
  return narrowed(task, (sorted) => {
    const union = intervals(task.filter!.typed, sorted.name);
    return union === null ? probed(task, sorted) : searched(sorted, union);
  });
}

/**
 * `sortedRange` for any filter: each probe of the binary searches asks the zone-map pruning whether
 * the filter can hold on rows whose sort column lies in [values[i], values[j - 1]] (the other columns
 * unknown), so it narrows exactly as soundly as pruning (a few µs a probe: allocation and the
 * pruning's interpretation, about half of a narrow indexed count before `interval`).
 */
export function probedRange(task: ScanTask): readonly [number, number] | null {
  return narrowed(task, (sorted) => probed(task, sorted));
}

// the rows in every sort column's range (each sound on its own, so their intersection is), rounded
function narrowed(task: ScanTask, range: (sorted: Sorted) => readonly [number, number]): readonly [number, number] | null {
  if (task.filter === null || task.sortedBy === undefined) return null;
  let [lo, hi] = [0, task.length];
  for (const name of task.sortedBy) {
    const sorted = sortedColumn(task, name);
    if (sorted === null) continue;
    const [a, b] = range(sorted);
    [lo, hi] = [Math.max(lo, a), Math.min(hi, b)];
  }
  return rounded(lo, hi, task.length);
}

// the rows from the first to the last row any of the intervals holds
function searched({ values, m }: Sorted, union: readonly Interval[]): readonly [number, number] {
  let [lo, hi] = [m, 0];
  for (const { lo: a, loInclusive, hi: b, hiInclusive } of union) {
    const from = search(0, m, loInclusive ? (i) => values[i]! >= a : (i) => values[i]! > a);
    const to = search(from, m, hiInclusive ? (i) => values[i]! > b : (i) => values[i]! >= b);
    if (from < to) [lo, hi] = [Math.min(lo, from), Math.max(hi, to)];
  }
  return [lo, hi];
}

interface Sorted {
  readonly name: string;
  readonly col: TaskColumn;
  readonly values: ArrayLike<number>;
  /** Rows [0, m) hold the non-null, non-NaN values, ascending; [m, length) the nulls and NaN. */
  readonly m: number;
}

function sortedColumn(task: ScanTask, name: string): Sorted | null {
  const col = task.columns[name];
  if (col === undefined || !narrowable(col)) return null;
  const values = col.values as ArrayLike<number>;
  const valid = (i: number) => values[i] === values[i] && (col.validity === null || ((col.validity[i >> 3]! >> (i & 7)) & 1) === 1);
  return { name, col, values, m: search(0, task.length, (i) => !valid(i)) };
}

function probed(task: ScanTask, { name, col, values, m }: Sorted): readonly [number, number] {
  const n = task.length;
  const can = zonePredicate(task.filter!.typed);
  const block = (i: number, j: number): ZoneMaps => ({ [name]: { min: values[i]!, max: values[j - 1]!, nullCount: 0, rows: j - i, nanCount: 0 } });
  const lo = search(0, m, (k) => can(block(0, k + 1))); // first row whose prefix can match
  let hi = search(lo, m, (k) => !can(block(k, m))); // first row whose suffix cannot
  if (m < n && can(tail(name, col, m, n))) hi = n;
  return [lo, hi];
}

/** Bounds on one column's non-null, non-NaN values. */
export interface Interval {
  readonly lo: number;
  readonly loInclusive: boolean;
  readonly hi: number;
  readonly hiInclusive: boolean;
}

/** A union of intervals (in any order, possibly empty or overlapping); null when unbounded. */
export type Union = readonly Interval[] | null;

/** Unions longer than this are taken as their hull. */
const MAX_UNION = 16;

/**
 * The values of column `name` outside of which `typed` is never true, from comparisons of the column
 * with number literals under `and` and `or` (a matching row's value is then never null or NaN: such
 * a comparison is not true on them); null when the filter does not bound the column that way (`not`,
 * `in`, other columns alone, arithmetic: the zone-map probes of `sortedRange` decide those).
 * @example
 * intervals(typed('(depth < 10 or depth > 5990) and temp < 5'), 'depth') // [{ lo: -Infinity, .., hi: 10 }, { lo: 5990, .., hi: Infinity }]
 */
export function intervals(e: TypedExpr, name: string): Union {
  if (e.kind === 'logical') {
    const [a, b] = [intervals(e.left, name), intervals(e.right, name)];
    if (e.op === 'or') return a === null || b === null ? null : capped([...a, ...b]);
    if (a === null || b === null) return a ?? b;
    return capped(a.flatMap((x) => b.map((y) => intersect(x, y))).filter(nonEmpty));
  }
  const c = boundCompare(e);
  if (c === null || c.column.name !== name) return null;
  const { op, value: v } = c;
  const all = { lo: -Infinity, loInclusive: true, hi: Infinity, hiInclusive: true };
  switch (op) {
    case '==':
      return [{ lo: v, loInclusive: true, hi: v, hiInclusive: true }];
    case '>':
    case '>=':
      return [{ ...all, lo: v, loInclusive: op === '>=' }];
    case '<':
    case '<=':
      return [{ ...all, hi: v, hiInclusive: op === '<=' }];
    default:
      return null;
  }
}

type Bound = { readonly column: TypedColumn; readonly op: CompareOp; readonly value: number };

/**
 * A comparison of a column with a number literal (not NaN), the column on the left (`3 < x` is
 * read as `x > 3`); else null.
 */
export function literalCompare(e: TypedExpr): Bound | null {
  const c = columnLiteral(e);
  return c === null || typeof c.value !== 'number' || Number.isNaN(c.value) ? null : { ...c, value: c.value };
}

// `literalCompare`, or a comparison with a bigint literal (an int64 or temporal column's) that a
// double holds exactly: the column's bigint values compare with the number exactly
function boundCompare(e: TypedExpr): Bound | null {
  const c = columnLiteral(e);
  if (c === null) return null;
  const v = typeof c.value === 'bigint' && BigInt(Number(c.value)) === c.value ? Number(c.value) : c.value;
  return typeof v === 'number' && !Number.isNaN(v) ? { ...c, value: v } : null;
}

// a comparison of a column with a literal, the column on the left; else null
function columnLiteral(e: TypedExpr): { readonly column: TypedColumn; readonly op: CompareOp; readonly value: unknown } | null {
  if (e.kind !== 'compare') return null;
  let { op, left, right } = e;
  if (left.kind === 'literal') [left, right, op] = [right, left, FLIP[op]];
  return left.kind === 'column' && right.kind === 'literal' ? { column: left, op, value: right.value } : null;
}

const FLIP: Readonly<Record<CompareOp, CompareOp>> = { '==': '==', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** The values in both intervals (lo > hi, or equal and not both inclusive, when none). */
export function intersect(a: Interval, b: Interval): Interval {
  const lo = a.lo > b.lo || (a.lo === b.lo && !a.loInclusive) ? a : b;
  const hi = a.hi < b.hi || (a.hi === b.hi && !a.hiInclusive) ? a : b;
  return { lo: lo.lo, loInclusive: lo.loInclusive, hi: hi.hi, hiInclusive: hi.hiInclusive };
}

const nonEmpty = (x: Interval) => x.lo < x.hi || (x.lo === x.hi && x.loInclusive && x.hiInclusive);

// a union of at most MAX_UNION intervals: a longer one becomes its hull
function capped(union: Interval[]): Interval[] {
  if (union.length <= MAX_UNION) return union;
  return [union.reduce((a, b) => {
    const lo = a.lo < b.lo || (a.lo === b.lo && a.loInclusive) ? a : b;
    const hi = a.hi > b.hi || (a.hi === b.hi && a.hiInclusive) ? a : b;
    return { lo: lo.lo, loInclusive: lo.loInclusive, hi: hi.hi, hiInclusive: hi.hiInclusive };
  })];
}

// [lo, hi) widened to whole bytes of the bitmaps (empty when it is); null when that is every row
function rounded(lo: number, hi: number, n: number): readonly [number, number] | null {
  if (lo >= hi) return [lo & ~7, lo & ~7];
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

/**
 * Whether the first `n` rows of a column are in the order a sort column's are: its non-null,
 * non-NaN values ascending (-0 and 0 equal), then only nulls and NaN. Stops at the first row out of
 * order, so an unordered column costs a few rows and an ordered one a pass.
 */
export function ascending(col: TaskColumn, n: number): boolean {
  if (!narrowable(col)) return false;
  if (col.values instanceof BigInt64Array) return ascendingWords(new Int32Array(col.values.buffer, col.values.byteOffset, 2 * n), col.validity, n);
  return ascendingValues(col.values as ArrayLike<number>, col.validity, n);
}

// `ascendingValues` of signed 64-bit values read as (high word, unsigned low word): no BigInt made
function ascendingWords(words: Int32Array, validity: Uint8Array | null, n: number): boolean {
  let i = 0;
  let [high, low] = [-2147483648, 0];
  for (; i < n; i++) {
    if (validity !== null && ((validity[i >> 3]! >> (i & 7)) & 1) === 0) break;
    const h = words[2 * i + 1]!;
    const l = words[2 * i]! >>> 0;
    if (h < high || (h === high && l < low)) return false;
    [high, low] = [h, l];
  }
  for (; i < n; i++) if (validity === null || ((validity[i >> 3]! >> (i & 7)) & 1) === 1) return false;
  return true;
}

function ascendingValues(values: ArrayLike<number>, validity: Uint8Array | null, n: number): boolean {
  let i = 0;
  let last = -Infinity;
  for (; i < n; i++) {
    const v = values[i]!;
    if (v !== v || (validity !== null && ((validity[i >> 3]! >> (i & 7)) & 1) === 0)) break;
    if (v < last) return false;
    last = v;
  }
  for (; i < n; i++) {
    const v = values[i]!;
    if (v === v && (validity === null || ((validity[i >> 3]! >> (i & 7)) & 1) === 1)) return false;
  }
  return true;
}

/**
 * Whether a scan can narrow by a column: the sort column's kinds, and signed 64-bit integers
 * (int64, timestamps, date64: bigint values, which compare with number bounds exactly).
 */
export function narrowable(col: TaskColumn): boolean {
  return searchable(col) || (col.values instanceof BigInt64Array && col.width === 8);
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
