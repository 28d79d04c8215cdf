// The scan operator: run a partition's filter kernel, then count or gather the selected rows.
import { compileFilter, type CompiledFilter, type TypedExpr } from '../expr/index.js';
import { compactInPlace, gather, runOf } from './gather.js';
import { narrowTask, sortedRange } from './narrow.js';
import { type RangeFilter, inRange, rangeFilter, readySketch, sketchBounds, sketchScan } from './sketch.js';
import { partialAggregate } from '../aggregate/partial.js';
import { encodePositions } from '../mvcc/positions.js';
import type { ResultColumn, ScanResult, ScanTask, TaskColumn } from './task.js';

/** A filter's kernel (compiled when first needed: a scan through a sketch needs none) and, when it is a range on one float64 column, that range. */
interface Filter {
  readonly compiled: CompiledFilter;
  readonly range: RangeFilter | null;
  /** Whether `compiled` has been compiled on this thread already. */
  readonly isCompiled: boolean;
}

// the kernel of a filter, compiled on first use
class LazyFilter implements Filter {
  private kernel: CompiledFilter | null = null;
  readonly range: RangeFilter | null;

  constructor(private readonly typed: TypedExpr) {
    this.range = rangeFilter(typed);
  }

  get compiled(): CompiledFilter {
    return (this.kernel ??= compileFilter(this.typed));
  }

  get isCompiled(): boolean {
    return this.kernel !== null;
  }
}

const kernels = new Map<string, Filter>();
const MAX_KERNELS = 256;

/**
 * Runs one scan task to completion on the calling thread. A partition sorted by a column the filter
 * bounds is scanned over the row range that can match only; positions come back relative to the partition.
 */
export function runScan(task: ScanTask): ScanResult {
  const result = scanRange(task);
  if (!task.encodeRows || !result.rows) return result;
  return { ...result, encoded: encodePositions(new Uint32Array(result.rows.buffer, result.rows.byteOffset, result.rows.length)) };
}

function scanRange(task: ScanTask): ScanResult {
  const range = task.rowRange !== undefined ? task.rowRange : sortedRange(task);
  if (range === null) return scanPart(task);
  const [lo, hi] = range;
  const sub = narrowTask(task, lo, hi);
  narrowed.add(sub);
  const { codes: _, ...result } = scanPart(sub); // codes of a row range are not the partition's
  if (result.rows && lo !== 0) shift(result.rows, lo); // the sub-scan's own copy
  return { ...result, scanned: hi - lo };
}

// positions of a row range made relative to the partition
function shift(rows: Int32Array, lo: number): void {
  for (let k = 0; k < rows.length; k++) rows[k] = rows[k]! + lo;
}

// tasks over a row range: their columns are sub-views (offsets not from 0, null counts of the whole), never handed back as they are
const narrowed = new WeakSet<ScanTask>();

function scanPart(task: ScanTask): ScanResult {
  if (task.mode === 'aggregate') return aggregateScan(task);
  if (task.mode === 'count' && task.deletedRows && !task.withRows) return { count: countLive(task, task.deletedRows) };
  if (task.deleted || task.withRows) return scanSelected(task);
  const { length } = task;
  if (task.filter === null) return task.mode === 'count' ? { count: length } : { count: length, columns: passThrough(task) };
  if (task.mode === 'count') return { count: filterRows(task, null) };
  const sel = new Int32Array(length);
  const count = filterRows(task, sel);
  if (count === length) return { count, columns: passThrough(task) };
  return { count, columns: picked(task, sel, count) };
}

// the matches of every row minus those among the deleted rows (few): no selection vector, no bitmap test per row
function countLive(task: ScanTask, deleted: Int32Array): number {
  if (task.filter === null) return task.length - deleted.length;
  const all = filterRows(task, null);
  if (deleted.length === 0 || all === 0) return all;
  const { compiled } = kernelFor(task.filter.key, task);
  const gone = compiled.columns.map((name) => task.deletedColumns?.[name] ?? gather(task.columns[name]!, deleted, deleted.length));
  return all - compiled.kernel(gone, deleted.length, null);
}

// the general path: a selection vector without the deleted rows, and the row positions on request
function scanSelected(task: ScanTask): ScanResult {
  const { length, deleted } = task;
  const sel = scratch(length); // what is returned is copied out of it
  let count: number;
  if (task.filter === null) {
    count = length;
    positions(sel, length);
  } else {
    count = filterRows(task, sel);
  }
  if (deleted) count = dropDeleted(sel, count, deleted);
  if (task.mode === 'count') return { count };
  const rows = task.withRows ? sel.slice(0, count) : undefined;
  if (count === length) return { count, columns: passThrough(task), rows };
  return { count, columns: picked(task, sel, count), rows };
}

// one selection buffer per thread for scanSelected and aggregateScan, grown as needed (a fresh 4 MiB
// array per partition of a match scan costs page faults and GC); runScan is synchronous, so no two
// users overlap
let shared = new Int32Array(0);

function scratch(length: number): Int32Array {
  if (shared.length < length) shared = new Int32Array(length);
  return shared.length === length ? shared : shared.subarray(0, length);
}

// compacts sel[0..count) in place, keeping the rows whose deleted bit is clear
function dropDeleted(sel: Int32Array, count: number, deleted: Uint8Array): number {
  let out = 0;
  for (let j = 0; j < count; j++) {
    const i = sel[j]!;
    if (((deleted[i >> 3]! >> (i & 7)) & 1) === 0) sel[out++] = i;
  }
  return out;
}

// partial aggregates of the rows the filter selects
function aggregateScan(task: ScanTask): ScanResult {
  let sel: Int32Array | null = null;
  let count = task.length;
  // the thread's selection buffer (see scratch): the partial aggregate keeps nothing of it
  if (task.filter !== null) {
    sel = scratch(task.length);
    count = filterRows(task, sel);
  }
  if (task.deleted) {
    if (sel === null) {
      sel = positions(scratch(task.length), count);
    }
    count = dropDeleted(sel, count, task.deleted);
  }
  const { partial, codes } = partialAggregate(task.aggregate!, task.columns, task.length, sel, count, task.codes);
  return codes ? { count, partial, codes } : { count, partial };
}

// the selected rows of the projected columns: when they are one run of consecutive rows (a range of a
// sorted partition), views of the columns that allow it (`runOf`), else moved or gathered (`pick`)
function picked(task: ScanTask, sel: Int32Array, count: number): ResultColumn[] {
  const first = count > 0 && sel[count - 1]! - sel[0]! === count - 1 ? sel[0]! : -1;
  return task.project.map((name) => {
    const col = task.columns[name]!;
    return (first >= 0 && runOf(col, first, count)) || pick(col, sel, count);
  });
}

// the selected rows: moved to the front of a chunk the scan owns, else gathered into a new one
const pick = (col: TaskColumn, sel: Int32Array, count: number): ResultColumn => (col.owned ? compactInPlace(col, sel, count) : gather(col, sel, count));

// every row selected: hand back the input buffers themselves, no copy
function passThrough(task: ScanTask): ResultColumn[] {
  if (task.project.length === 0) return [];
  if (narrowed.has(task)) {
    // sub-views: views again where `runOf` can rebase them, else copies
    let all: Int32Array | undefined;
    return task.project.map((name) => {
      const col = task.columns[name]!;
      return runOf(col, 0, task.length) ?? gather(col, (all ??= positions(new Int32Array(task.length), task.length)), task.length);
    });
  }
  return task.project.map((name) => {
    const c = task.columns[name]!;
    return { values: c.values, validity: c.validity, offsets: c.offsets, nullCount: c.nullCount };
  });
}

// `out` with positions 0..n-1 in its first n slots (a plain loop: `Int32Array.from` with a mapping
// function takes ~25 ns a row)
function positions(out: Int32Array, n: number): Int32Array {
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

// the rows of all of the task's rows matching its filter (see FilterKernel): through the sketch
// of the filtered column when the filter is a range on it and the sketch serves (exec/sketch.ts)
function filterRows(task: ScanTask, out: Int32Array | null): number {
  const filter = kernelFor(task.filter!.key, task);
  const { range } = filter;
  const col = range === null ? undefined : task.columns[range.column];
  if (col?.sketch !== undefined && col.sketch.order.length === task.length && col.values instanceof Float64Array) {
    const sketch = readySketch(col.sketch, col.values, col.validity);
    const bounds = sketch === null ? null : sketchBounds(sketch, range!);
    if (bounds !== null) return sketchScan(sketch!, col.values, col.validity, range!, bounds, out);
  }
  // a few rows under a range of a new query (a sorted partition's narrowed band): a plain loop
  // costs less than compiling the query's kernel (~0.6 ms; every new band is a new query)
  // (a length the values do not hold goes to the kernel, which refuses it)
  if (col !== undefined && col.values instanceof Float64Array && !filter.isCompiled && task.length >= 0 && task.length <= Math.min(PLAIN_RANGE_ROWS, col.values.length)) {
    return rangeRows(col.values, col.validity, range!, task.length, out);
  }
  const { compiled } = filter;
  return compiled.kernel(compiled.columns.map((name) => task.columns[name]!), task.length, out);
}

function kernelFor(key: string, task: ScanTask): Filter {
  let filter = kernels.get(key);
  if (!filter) {
    filter = new LazyFilter(task.filter!.typed);
    if (kernels.size >= MAX_KERNELS) kernels.delete(kernels.keys().next().value!);
    kernels.set(key, filter);
  }
  return filter;
}

/** Rows up to which a range filter with no compiled kernel yet is tested by `rangeRows`. */
const PLAIN_RANGE_ROWS = 1 << 16;

// the rows of [0, n) whose value lies in `range` (not null): positions into `out` when given, and how many
function rangeRows(values: Float64Array, validity: Uint8Array | null, range: RangeFilter, n: number, out: Int32Array | null): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (inRange(values, validity, range, i)) {
      if (out !== null) out[k] = i;
      k++;
    }
  }
  return k;
}
