// Arrow batches → JSON-safe rows (int64 as a number when exact, else a string; times ISO in their unit's
// precision; bytes base64).
// Fixed-width columns are read from their typed arrays and validity bitmaps, not through Vector.get.
import { type DataType, type RecordBatch, type Schema, TimeUnit, Type, type Vector } from 'apache-arrow';

/** A row as the v1 API sends it. */
export type JsonRow = Record<string, unknown>;

/** Reads row `i` of one column of one batch as a JSON value (null for a null). */
type Reader = (i: number) => unknown;

/** A converter for batches of `schema`: call `read(batch)` once per batch, then `row(i)`. */
export function rowConverter(schema: Schema): (batch: RecordBatch) => (i: number) => JsonRow {
  const names = schema.fields.map((f) => f.name);
  return (batch) => {
    const readers = names.map((_, c) => reader(batch.getChildAt(c)!));
    return (i) => {
      const out: JsonRow = {};
      for (let c = 0; c < names.length; c++) out[names[c]!] = readers[c]!(i);
      return out;
    };
  };
}

/**
 * An instant stored in `unit` as ISO-8601 UTC text that holds it exactly: seconds and milliseconds
 * as `Date.toISOString` writes them (`.000Z`), microseconds with 6 and nanoseconds with 9 digits.
 * @example
 * isoInstant(TimeUnit.MICROSECOND)(1714564800123456n) // '2024-05-01T12:00:00.123456Z'
 */
export function isoInstant(unit: TimeUnit): (v: bigint) => string {
  if (unit === TimeUnit.SECOND) return (v) => new Date(Number(v) * 1000).toISOString();
  if (unit === TimeUnit.MILLISECOND) return (v) => new Date(Number(v)).toISOString();
  const [per, perBig, digits] = unit === TimeUnit.MICROSECOND ? [1e3, 1000n, 3] : [1e6, 1_000_000n, 6];
  // the millisecond at or before the instant, and the units after it
  const text = (ms: number, sub: number | bigint): string => `${new Date(ms).toISOString().slice(0, -1)}${String(sub).padStart(digits, '0')}Z`;
  return (v) => {
    if (v >= MIN && v <= MAX) {
      const n = Number(v);
      const ms = Math.floor(n / per);
      return text(ms, n - ms * per);
    }
    let ms = v / perBig;
    let sub = v % perBig;
    if (sub < 0n) {
      ms -= 1n;
      sub += perBig;
    }
    return text(Number(ms), sub);
  };
}

const MIN = BigInt(Number.MIN_SAFE_INTEGER);
const MAX = BigInt(Number.MAX_SAFE_INTEGER);
const int64 = (v: bigint): number | string => (v >= MIN && v <= MAX ? Number(v) : v.toString());
const float = (v: number): number | string => (Number.isFinite(v) ? v : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity');
const DAY_MS = 86_400_000;

function reader(v: Vector): Reader {
  const fast = v.data.length === 1 ? fixedWidth(v) : undefined;
  if (fast) return fast;
  const conv = slow(v.type);
  return (i) => {
    const x = v.get(i);
    return x === null || x === undefined ? null : conv(x);
  };
}

/**
 * Direct reads of one-chunk fixed-width columns, or undefined for other types. arrow-js slices the
 * value arrays of a sliced Data but not its bitmaps: values index from 0, bitmaps (validity, and the
 * values of a bool column) from `offset`.
 */
function fixedWidth(v: Vector): Reader | undefined {
  const d = v.data[0]!;
  const off = d.offset;
  const bits = d.nullCount > 0 ? d.nullBitmap : undefined;
  const valid = (i: number): boolean => bits === undefined || ((bits[(off + i) >> 3]! >> ((off + i) & 7)) & 1) === 1;
  const t = v.type;
  let read: Reader | undefined;
  if (t.typeId === Type.Float && (d.values instanceof Float64Array || d.values instanceof Float32Array)) {
    const vals = d.values;
    read = (i) => float(vals[i]!);
  } else if (t.typeId === Type.Int) {
    const vals = d.values as ArrayLike<number | bigint>;
    read = vals instanceof BigInt64Array || vals instanceof BigUint64Array ? (i) => int64(vals[i] as bigint) : (i) => vals[i];
  } else if (t.typeId === Type.Timestamp && d.values instanceof BigInt64Array) {
    const vals = d.values;
    const iso = isoInstant((t as unknown as { unit: TimeUnit }).unit);
    read = (i) => iso(vals[i]!);
  } else if (t.typeId === Type.Date && d.values instanceof Int32Array && (t as unknown as { unit: number }).unit === 0) {
    const vals = d.values;
    read = (i) => new Date(vals[i]! * DAY_MS).toISOString().slice(0, 10);
  } else if (t.typeId === Type.Bool) {
    const vals = d.values as Uint8Array;
    read = (i) => ((vals[(off + i) >> 3]! >> ((off + i) & 7)) & 1) === 1;
  }
  if (!read) return undefined;
  const r = read;
  return bits === undefined ? r : (i) => (valid(i) ? r(i) : null);
}

function slow(t: DataType): (v: unknown) => unknown {
  switch (t.typeId) {
    case Type.Int:
      return (v) => (typeof v === 'bigint' ? int64(v) : v);
    case Type.Float:
      return (v) => float(v as number);
    case Type.Timestamp: // milliseconds only (Vector.get); a batch's timestamps are one BigInt64Array chunk, read exactly by fixedWidth
      return (v) => new Date(Math.floor(v as number)).toISOString();
    case Type.Date:
      return (v) => new Date(v as number).toISOString().slice(0, 10);
    case Type.Binary:
    case Type.LargeBinary:
      return (v) => Buffer.from((v as Uint8Array).buffer, (v as Uint8Array).byteOffset, (v as Uint8Array).byteLength).toString('base64');
    default:
      return (v) => v;
  }
}
