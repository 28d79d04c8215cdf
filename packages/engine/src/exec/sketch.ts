// Column sketches: 16-bit order-preserving codes of a float64 chunk, so a range filter reads 2 bytes a row, not 8.
import type { TypedExpr } from '../expr/index.js';

/**
 * The sketch of one float64 chunk, in shared memory: `codes[i]` is `code(values[i])`, a monotone
 * (non-decreasing) function of the value into 0..16382 (14 bits); null and NaN rows are 16383. A
 * row whose code lies strictly between the codes of a filter's bounds matches for sure; a row with
 * a bound's code (about 1 in 8k) is tested on its value; every other row fails. A scan reads the
 * codes four at a time (two u32 words, a SWAR test for a code in range in small-integer arithmetic)
 * and looks at single rows only in words that hold one. 2 bytes a row: a quarter of the values.
 * `state[0]`: 0 never scanned, 3 scanned once, 1 being built (by one thread), 2 ready (`codes` and
 * `scale` written before it, with Atomics.store). After Hentschel, Kester, Idreos, "Column Sketches", SIGMOD 2018.
 */
export interface Sketch {
  /** One code per row, the buffer padded to whole u32 words. */
  readonly codes: Uint16Array;
  /** [min, scale]: code(x) = clamp(floor((x - min) * scale), 0, 16382). */
  readonly scale: Float64Array;
  readonly state: Int32Array;
}

/** A filter that bounds one float64 column by number literals: lo (<)= x (<)= hi, either side optional. */
export interface RangeFilter {
  readonly column: string;
  readonly lo: number;
  readonly loInclusive: boolean;
  readonly hi: number;
  readonly hiInclusive: boolean;
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
/** Ranges spanning more codes than this (about 5% of the values' span) scan the values: too many words would hold a candidate. */
const MAX_SPAN = 800;
const [NEW, BUILDING, READY, SEEN] = [0, 1, 2, 3];

/** An empty sketch for a chunk of `rows` rows (built by the second range scan that reads it). */
export function emptySketch(rows: number): Sketch {
  return {
    codes: new Uint16Array(new SharedArrayBuffer(2 * ((rows + 1) & ~1)), 0, rows),
    scale: new Float64Array(new SharedArrayBuffer(16)),
    state: new Int32Array(new SharedArrayBuffer(4)),
  };
}

/**
 * The range of `typed` when it is a comparison of a float64 column with a number literal, or the
 * `and` of two such on the same column; else null. NaN bounds are left to the kernel (nothing matches).
 * @example
 * rangeFilter(prepareFilter('depth >= 60 and depth < 120', schema).typed) // { column: 'depth', lo: 60, loInclusive: true, hi: 120, hiInclusive: false }
 */
export function rangeFilter(typed: TypedExpr): RangeFilter | null {
  if (typed.kind === 'logical' && typed.op === 'and') {
    const [a, b] = [rangeFilter(typed.left), rangeFilter(typed.right)];
    if (a === null || b === null || a.column !== b.column) return null;
    const lo = a.lo > b.lo || (a.lo === b.lo && !a.loInclusive) ? a : b;
    const hi = a.hi < b.hi || (a.hi === b.hi && !a.hiInclusive) ? a : b;
    return { column: a.column, lo: lo.lo, loInclusive: lo.loInclusive, hi: hi.hi, hiInclusive: hi.hiInclusive };
  }
  if (typed.kind !== 'compare') return null;
  let { op, left, right } = typed;
  if (left.kind === 'literal' && right.kind === 'column') {
    [left, right] = [right, left];
    op = FLIP[op] ?? op;
  }
  if (left.kind !== 'column' || left.physical !== 'float64' || right.kind !== 'literal') return null;
  const v = right.value;
  if (typeof v !== 'number' || Number.isNaN(v)) return null;
  const all = { column: left.name, lo: -Infinity, loInclusive: true, hi: Infinity, hiInclusive: true };
  if (op === '>' || op === '>=') return { ...all, lo: v, loInclusive: op === '>=' };
  if (op === '<' || op === '<=') return { ...all, hi: v, hiInclusive: op === '<=' };
  return null;
}

const FLIP: Readonly<Record<string, '<' | '<=' | '>' | '>='>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/**
 * The sketch of a chunk if it can serve a scan now: ready, or built here when this is the chunk's
 * second range scan and no other thread builds it; null when the scan must read the values.
 */
export function readySketch(sketch: Sketch, values: Float64Array, validity: Uint8Array | null): Sketch | null {
  if (values.length < sketch.codes.length) return null;
  const state = Atomics.load(sketch.state, 0);
  if (state === READY) return sketch;
  if (state === NEW) Atomics.compareExchange(sketch.state, 0, NEW, SEEN);
  if (state !== SEEN || Atomics.compareExchange(sketch.state, 0, SEEN, BUILDING) !== SEEN) return null;
  buildSketch(sketch, values, validity);
  Atomics.store(sketch.state, 0, READY);
  return sketch;
}

/** Writes the codes of `values` (nulls and NaN: 16383) and the code function into `sketch`. */
export function buildSketch(sketch: Sketch, values: Float64Array, validity: Uint8Array | null): void {
  const n = sketch.codes.length;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    // finite values only: an infinity would make every other code 0 (and -Infinity - -Infinity is NaN)
    if (x - x === 0) {
      if (x < min) min = x;
      if (x > max) max = x;
    }
  }
  const scale = max > min && Number.isFinite(TOP / (max - min)) ? TOP / (max - min) : 0;
  sketch.scale[0] = min === Infinity ? 0 : min;
  sketch.scale[1] = scale;
  const codes = sketch.codes;
  const lo = sketch.scale[0];
  for (let i = 0; i < n; i++) codes[i] = codeOf(values[i]!, lo, scale);
  if (validity !== null) for (let i = 0; i < n; i++) if (((validity[i >> 3]! >> (i & 7)) & 1) === 0) codes[i] = NONE;
}

/** The code of a value: monotone in `x` (floating-point subtraction, product and floor all are), NaN last. */
export function codeOf(x: number, min: number, scale: number): number {
  if (x !== x) return NONE;
  const t = (x - min) * scale;
  return t >= TOP ? TOP : t > 0 ? Math.floor(t) : 0;
}

/** The codes of a range's bounds [lo, hi] (lo -1 when every code qualifies from below), or null when the sketch would not pay. */
export function sketchBounds(sketch: Sketch, range: RangeFilter, maxSpan = MAX_SPAN): readonly [number, number] | null {
  const [min, scale] = [sketch.scale[0]!, sketch.scale[1]!];
  // no lower bound: -1, below every code; no upper bound: 16383, so null and NaN rows get the value
  // test (and fail it); `x > -Infinity` and `x < Infinity` test the infinities' codes (0 and 16382)
  const lo = range.lo === -Infinity && range.loInclusive ? -1 : codeOf(range.lo, min, scale);
  const hi = range.hi === Infinity && range.hiInclusive ? NONE : codeOf(range.hi, min, scale);
  return hi - lo > maxSpan ? null : [lo, hi];
}

/**
 * The rows of `range` through the sketch, given its bound codes (`sketchBounds`): with `out`, their
 * positions ascending (returns how many); with `out === null`, only the count.
 */
export function sketchScan(sketch: Sketch, values: Float64Array, validity: Uint8Array | null, range: RangeFilter, bounds: readonly [number, number], out: Int32Array | null): number {
  const [lo, hi] = bounds;
  const codes = sketch.codes;
  const n = codes.length;
  const words = new Uint32Array(codes.buffer, codes.byteOffset, n >> 1);
  // a word (two 14-bit codes in 16-bit lanes) holds a code c with lo <= c <= hi exactly when
  // (below - x) & (x + above) has a lane's bit 14 set: per lane 0x4000 + hi - c and c + 0x4000 - lo,
  // both in 1..0x7fff, so no lane borrows or carries and every value stays a positive int32
  const above = PAIR * (0x4000 - Math.max(lo, 0));
  const below = PAIR * (0x4000 + hi);
  let k = 0;
  let w = 0;
  for (const end = words.length & ~1; w < end; w += 2) {
    const x = words[w]!;
    const y = words[w + 1]!;
    const inX = (below - x) & (x + above) & GUARD;
    const inY = (below - y) & (y + above) & GUARD;
    if ((inX | inY) === 0) continue; // most words of a narrow range
    // only the rows whose code is in range: each matches unless its code is a bound's and its value does not
    const i = w << 1;
    if ((inX & LOW_LANE) !== 0 && keep(codes[i]!, lo, hi, values, validity, range, i)) k = put(out, k, i);
    if ((inX & HIGH_LANE) !== 0 && keep(codes[i + 1]!, lo, hi, values, validity, range, i + 1)) k = put(out, k, i + 1);
    if ((inY & LOW_LANE) !== 0 && keep(codes[i + 2]!, lo, hi, values, validity, range, i + 2)) k = put(out, k, i + 2);
    if ((inY & HIGH_LANE) !== 0 && keep(codes[i + 3]!, lo, hi, values, validity, range, i + 3)) k = put(out, k, i + 3);
  }
  for (let i = w << 1; i < n; i++) {
    const c = codes[i]!;
    if (c >= lo && c <= hi && keep(c, lo, hi, values, validity, range, i)) k = put(out, k, i);
  }
  return k;
}

const put = (out: Int32Array | null, k: number, i: number): number => {
  if (out !== null) out[k] = i;
  return k + 1;
};

// whether row i, whose code c is in [lo, hi], matches: inside for sure, or on a bound (rare) and its value matches
function keep(c: number, lo: number, hi: number, values: Float64Array, validity: Uint8Array | null, range: RangeFilter, i: number): boolean {
  return (c !== lo && c !== hi) || matches(values, validity, range, i);
}

// the value test of row i: not null, and within the range
function matches(values: Float64Array, validity: Uint8Array | null, range: RangeFilter, i: number): boolean {
  if (validity !== null && ((validity[i >> 3]! >> (i & 7)) & 1) === 0) return false;
  const x = values[i]!;
  return (range.loInclusive ? x >= range.lo : x > range.lo) && (range.hiInclusive ? x <= range.hi : x < range.hi);
}

const PAIR = 0x0001_0001;
const LOW_LANE = 0x4000;
const HIGH_LANE = 0x4000_0000;
const GUARD = LOW_LANE | HIGH_LANE;
