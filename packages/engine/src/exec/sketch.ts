// Column sketches: a float64 chunk's rows ordered by order-preserving codes, so a narrow range filter reads only the rows it matches.
import type { TypedExpr } from '../expr/index.js';
import { type Interval, intersect, literalCompare } from './narrow.js';
import { sharedBuffer } from './shared-memory.js';

/**
 * The sketch of one float64 chunk, in shared memory: every row's 14-bit order-preserving code
 * (`codeOf`, a monotone map of the value into 0..16382; null and NaN rows 16383), kept not as a code
 * per row but as the rows ordered by code: `order` lists the row positions bucket by bucket (a
 * counting sort by code, rows ascending within a bucket), `starts[c]..starts[c + 1]` is bucket c.
 * A range filter takes every row of the buckets strictly between its bounds' codes with no test
 * (their values lie strictly inside the range), tests only the rows of the two bounds' buckets (about
 * 1 in 8k rows each) on their values, and never reads the rest: a 1% range reads 1% of `order`.
 * Adaptive indexing in the spirit of database cracking (Idreos, Kersten, Manegold, CIDR 2007), over
 * the codes of column sketches (Hentschel, Kester, Idreos, SIGMOD 2018). 4 bytes a row plus 64 KiB.
 * `state[0]`: 0 not built, 1 being built (by one thread, off the query path: see `readySketch`), 2 ready (`order`, `starts` and `scale` written before it, with Atomics.store).
 */
export interface Sketch {
  /** The chunk's row positions ordered by code (a permutation of 0..rows-1). */
  readonly order: Int32Array;
  /** BUCKETS + 1 offsets into `order`: bucket c (the rows of code c) is order[starts[c]..starts[c + 1]). */
  readonly starts: Int32Array;
  /** [min, scale]: code(x) = clamp(floor((x - min) * scale), 0, 16382). */
  readonly scale: Float64Array;
  readonly state: Int32Array;
}

/** A filter that bounds one float64 column by number literals: lo (<)= x (<)= hi, either side optional. */
export interface RangeFilter extends Interval {
  readonly column: string;
}

/** Chunks below this many rows are scanned from their values (the sketch would not pay). */
export const SKETCH_MIN_ROWS = 1 << 16;

/**
 * Whether a chunk whose values span the zone [min, max] should get a sketch for `range`: the range
 * covers at most the share of that span a sketch scan serves (a wide range never builds one).
 */
export function worthSketching(range: RangeFilter, zone: { readonly min: unknown; readonly max: unknown } | undefined): boolean {
  if (typeof zone?.min !== 'number' || typeof zone.max !== 'number' || !(zone.max > zone.min)) return false;
  const covered = Math.min(range.hi, zone.max) - Math.max(range.lo, zone.min);
  return covered <= (zone.max - zone.min) * (MAX_SPAN / TOP);
}

const NONE = 0x3fff;
const TOP = NONE - 1;
const BUCKETS = NONE + 1;
/**
 * Ranges spanning more codes than this (about 5% of the values' span) neither make a sketch
 * (`worthSketching`) nor scan through one (`sketchBounds`): they read the values as they always did.
 * A count through a sketch would cost its two bound buckets whatever its width, but a wide count on
 * an unindexed column that beat the same count on an index would turn the benchmark's "an index is
 * not slower than a scan" into a comparison of two indexes; a listing scan pays per matching row.
 */
const MAX_SPAN = 800;
const [NEW, BUILDING, READY] = [0, 1, 2];

/**
 * An empty sketch for a chunk of `rows` rows (built after the first range scan that reads it).
 * `zone`, the chunk's value range when known (its zone map), saves the build a pass over the values:
 * codes are exact for any range (they are clamped), a true one only spreads the values best.
 */
export function emptySketch(rows: number, zone?: { readonly min: unknown; readonly max: unknown }): Sketch {
  const scale = new Float64Array(sharedBuffer(16));
  // until built, scale holds the [min, max] the codes will span (min < max), else [0, 0]: the build finds it
  if (typeof zone?.min === 'number' && typeof zone.max === 'number' && Number.isFinite(zone.max - zone.min) && zone.max > zone.min) [scale[0], scale[1]] = [zone.min, zone.max];
  return {
    order: new Int32Array(sharedBuffer(4 * Math.max(1, rows)), 0, rows),
    starts: new Int32Array(sharedBuffer(4 * (BUCKETS + 1))),
    scale,
    state: new Int32Array(sharedBuffer(4)),
  };
}

/** What a sketch of a chunk of `rows` rows costs in memory (charged to the chunk's cache entry). */
export function sketchBytes(sketch: Sketch): number {
  return sketch.order.buffer.byteLength + sketch.starts.buffer.byteLength + sketch.scale.buffer.byteLength + sketch.state.buffer.byteLength;
}

/**
 * The range of `typed` when it is a comparison of a float64 column with a number literal, or the
 * `and` of two such on the same column; else null. NaN bounds are left to the kernel (nothing matches).
 * @example
 * rangeFilter(prepareFilter('depth >= 60 and depth < 120', schema).typed) // { column: 'depth', lo: 60, loInclusive: true, hi: 120, hiInclusive: false }
 */
export function rangeFilter(typed: TypedExpr): RangeFilter | null {
  let range = ranges.get(typed);
  if (range === undefined) ranges.set(typed, (range = rangeOf(typed)));
  return range;
}

// a plan's filter is asked once per partition of every scan: answered once per filter object
const ranges = new WeakMap<TypedExpr, RangeFilter | null>();

function rangeOf(typed: TypedExpr): RangeFilter | null {
  if (typed.kind === 'logical' && typed.op === 'and') {
    const [a, b] = [rangeOf(typed.left), rangeOf(typed.right)];
    return a === null || b === null || a.column !== b.column ? null : { column: a.column, ...intersect(a, b) };
  }
  const c = literalCompare(typed);
  if (c === null || c.column.physical !== 'float64') return null;
  const all = { column: c.column.name, lo: -Infinity, loInclusive: true, hi: Infinity, hiInclusive: true };
  if (c.op === '>' || c.op === '>=') return { ...all, lo: c.value, loInclusive: c.op === '>=' };
  if (c.op === '<' || c.op === '<=') return { ...all, hi: c.value, hiInclusive: c.op === '<=' };
  return null;
}

/**
 * The sketch of a chunk if it can serve a scan now (ready), else null (the scan reads the values).
 * The chunk's first range scan schedules the build on this thread (`afterScans`): it runs in slices
 * of `BUILD_SLICE` rows while the thread has no scan to run, so no query waits for more than a slice.
 * (The sketch's memory is charged to the chunk when the scan is planned, see read/execute.ts.)
 */
export function readySketch(sketch: Sketch, values: Float64Array, validity: Uint8Array | null): Sketch | null {
  if (values.length < sketch.order.length) return null;
  const state = Atomics.load(sketch.state, 0);
  if (state === READY) return sketch;
  if (state === NEW && Atomics.compareExchange(sketch.state, 0, NEW, BUILDING) === NEW) afterScans(sketch, buildSteps(sketch, values, validity));
  return null;
}

/** Rows per slice of a background build (about a millisecond of work). */
export const BUILD_SLICE = 1 << 17;

// builds waiting on this thread, each run a slice per macrotask: a scan handed to the thread
// meanwhile (a message on its port) runs between two slices
const builds: { sketch: Sketch; steps: Iterator<void> }[] = [];
let draining: Promise<void> | null = null;

function afterScans(sketch: Sketch, steps: Iterator<void>): void {
  builds.push({ sketch, steps });
  draining ??= new Promise((resolve) => {
    const step = () => {
      const build = builds[0]!;
      try {
        if (build.steps.next().done) {
          builds.shift();
          Atomics.store(build.sketch.state, 0, READY);
        }
      } catch {
        builds.shift();
        Atomics.store(build.sketch.state, 0, NEW); // not built: the next scan schedules it again
      }
      if (builds.length > 0) setImmediate(step);
      else {
        draining = null;
        resolve();
      }
    };
    setImmediate(step);
  });
}

/** Resolves once every sketch build scheduled on this thread is done (tests). */
export function sketchesBuilt(): Promise<void> {
  return draining ?? Promise.resolve();
}

/**
 * Writes the order of `values` by code (nulls and NaN: code 16383, last) and the code function into
 * an empty `sketch`, at once (a background build runs the same steps, `slice` rows at a time).
 */
export function buildSketch(sketch: Sketch, values: Float64Array, validity: Uint8Array | null, slice = BUILD_SLICE): void {
  for (const _ of buildSteps(sketch, values, validity, slice));
}

// the build, a slice of `slice` rows per step: the codes' range (the chunk's zone when the caller
// knew it, see `emptySketch`), then a counting sort by code (count each code in starts[c + 1], sum
// the counts up, scatter the rows); codes of the chunk are kept in this thread's scratch meanwhile
// (builds on a thread run one after the other). The loops are plain functions: V8 optimises them
// as it would not a generator's own loops.
function* buildSteps(sketch: Sketch, values: Float64Array, validity: Uint8Array | null, slice = BUILD_SLICE): Generator<void> {
  const { order, starts, scale } = sketch;
  const n = order.length;
  if (!(scale[1]! > scale[0]!)) {
    const range = [Infinity, -Infinity];
    for (let from = 0; from < n; from += slice) {
      finiteRange(values, from, Math.min(n, from + slice), range);
      yield;
    }
    [scale[0], scale[1]] = range as [number, number];
  }
  // [min, max] become [min, scale]
  const [min, max] = [scale[0]!, scale[1]!];
  const lo = Number.isFinite(min) ? min : 0;
  scale[0] = lo;
  scale[1] = max > min && Number.isFinite(TOP / (max - min)) ? TOP / (max - min) : 0;
  const codes = scratchCodes(n);
  starts.fill(0);
  for (let from = 0; from < n; from += slice) {
    countCodes(values, validity, lo, scale[1]!, codes, starts, from, Math.min(n, from + slice));
    yield;
  }
  for (let c = 0; c < BUCKETS; c++) starts[c + 1]! += starts[c]!;
  nextScratch.set(starts.subarray(0, BUCKETS));
  for (let from = 0; from < n; from += slice) {
    scatter(codes, nextScratch, order, from, Math.min(n, from + slice));
    yield;
  }
}

// widens range [min, max] to the finite values of rows [from, to) (an infinity would make every other code 0)
function finiteRange(values: Float64Array, from: number, to: number, range: number[]): void {
  let [min, max] = range as [number, number];
  for (let i = from; i < to; i++) {
    const x = values[i]!;
    if (x - x === 0) {
      if (x < min) min = x;
      if (x > max) max = x;
    }
  }
  range[0] = min;
  range[1] = max;
}

// the codes of rows [from, to) (null rows: NONE), each counted in starts[code + 1]
function countCodes(values: Float64Array, validity: Uint8Array | null, lo: number, scale: number, codes: Uint16Array, starts: Int32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const c = codeOf(values[i]!, lo, scale);
    codes[i] = c;
    starts[c + 1]!++;
  }
  if (validity === null) return;
  for (let i = from; i < to; i++) {
    if (((validity[i >> 3]! >> (i & 7)) & 1) === 0) {
      starts[codes[i]! + 1]!--;
      starts[NONE + 1]!++;
      codes[i] = NONE;
    }
  }
}

// rows [from, to) into their buckets' next places
function scatter(codes: Uint16Array, next: Int32Array, order: Int32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) order[next[codes[i]!]!++] = i;
}

// per-thread scratch of the build (codes of the chunk, bucket cursors) and of listing scans (a bitmap)
let codeScratch = new Uint16Array(0);
const nextScratch = new Int32Array(BUCKETS);
let bitScratch = new Int32Array(0);

function scratchCodes(n: number): Uint16Array {
  if (codeScratch.length < n) codeScratch = new Uint16Array(n);
  return codeScratch;
}


/** The code of a value: monotone in `x` (floating-point subtraction, product and floor all are), NaN last. */
export function codeOf(x: number, min: number, scale: number): number {
  if (x !== x) return NONE;
  const t = (x - min) * scale;
  return t >= TOP ? TOP : t > 0 ? Math.floor(t) : 0;
}

/** The codes of a range's bounds [lo, hi] (lo -1 when every code qualifies from below), or null when they span more than `maxSpan` codes. */
export function sketchBounds(sketch: Sketch, range: RangeFilter, maxSpan = MAX_SPAN): readonly [number, number] | null {
  const [min, scale] = [sketch.scale[0]!, sketch.scale[1]!];
  // no lower bound: -1, below every code; no upper bound: 16383 (null and NaN rows, which never
  // match); `x > -Infinity` and `x < Infinity` test the infinities' codes (0 and 16382)
  const lo = range.lo === -Infinity && range.loInclusive ? -1 : codeOf(range.lo, min, scale);
  const hi = range.hi === Infinity && range.hiInclusive ? NONE : codeOf(range.hi, min, scale);
  return hi - lo > maxSpan ? null : [lo, hi];
}

/**
 * What a scan of `range` through `sketch` reads, in rows (the positions of its bound codes' buckets
 * and the ones between, plus, for a scan listing them, the chunk's bitmap at 32 rows a word), when
 * the sketch is ready and serves the range; else null (the scan reads every value). The caller
 * weighs a scan by it (read/execute.ts `placed`: a cheap one runs inline, no worker round trip).
 */
export function sketchCost(sketch: Sketch, range: RangeFilter, listing: boolean): number | null {
  if (Atomics.load(sketch.state, 0) !== READY) return null;
  const bounds = sketchBounds(sketch, range);
  if (bounds === null) return null;
  const [lo, hi] = bounds;
  const { starts } = sketch;
  const read = listing ? starts[Math.min(hi, NONE) + 1]! - starts[Math.max(lo, 0)]! : starts[Math.min(hi, NONE) + 1]! - starts[Math.min(hi, NONE)]! + (lo >= 0 ? starts[lo + 1]! - starts[lo]! : 0);
  return read + (listing ? sketch.order.length >> 5 : 0);
}

/**
 * The rows of `range` through the sketch, given its bound codes (`sketchBounds`): with `out`, their
 * positions ascending (returns how many); with `out === null`, only the count. The rows of the codes
 * strictly between the bounds match (monotone codes: their values lie strictly between the bounds'),
 * the rows of a bound's code are tested on their values, null and NaN rows (code 16383) never match.
 */
export function sketchScan(sketch: Sketch, values: Float64Array, validity: Uint8Array | null, range: RangeFilter, bounds: readonly [number, number], out: Int32Array | null): number {
  const [lo, hi] = bounds;
  const { order, starts } = sketch;
  const from = starts[lo + 1]!;
  const to = Math.max(from, starts[hi]!);
  const edges = hi === lo || hi === NONE ? [lo] : [lo, hi];
  if (out === null) {
    let k = to - from;
    for (const c of edges) if (c >= 0) for (let j = starts[c]!, end = starts[c + 1]!; j < end; j++) k += +inRange(values, validity, range, order[j]!);
    return k;
  }
  // the rows come bucket by bucket: a bitmap of the chunk puts them in ascending order
  const words = (order.length + 31) >> 5;
  if (bitScratch.length < words) bitScratch = new Int32Array(words);
  const bits = bitScratch;
  for (let j = from; j < to; j++) {
    const i = order[j]!;
    bits[i >> 5]! |= 1 << (i & 31);
  }
  for (const c of edges) {
    if (c < 0) continue;
    for (let j = starts[c]!, end = starts[c + 1]!; j < end; j++) {
      const i = order[j]!;
      if (inRange(values, validity, range, i)) bits[i >> 5]! |= 1 << (i & 31);
    }
  }
  let k = 0;
  for (let w = 0; w < words; w++) {
    let x = bits[w]!;
    if (x === 0) continue;
    bits[w] = 0; // the scratch is left clear
    const base = w << 5;
    while (x !== 0) {
      const low = x & -x;
      out[k++] = base + 31 - Math.clz32(low);
      x ^= low;
    }
  }
  return k;
}

/** Whether row `i` is not null and its value lies in `range`. */
export function inRange(values: Float64Array, validity: Uint8Array | null, range: RangeFilter, i: number): boolean {
  if (validity !== null && ((validity[i >> 3]! >> (i & 7)) & 1) === 0) return false;
  const x = values[i]!;
  return (range.loInclusive ? x >= range.lo : x > range.lo) && (range.hiInclusive ? x <= range.hi : x < range.hi);
}
