// Arrow batches → JSON-safe rows (int64 as a number when exact, else a string; times ISO; bytes base64).
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
  if (t.typeId === Type.Float) {
    const vals = d.values as Float64Array | Float32Array;
    read = (i) => float(vals[i]!);
  } else if (t.typeId === Type.Int) {
    const vals = d.values as ArrayLike<number | bigint>;
    read = vals instanceof BigInt64Array || vals instanceof BigUint64Array ? (i) => int64(vals[i] as bigint) : (i) => vals[i];
  } else if (t.typeId === Type.Timestamp && d.values instanceof BigInt64Array) {
    const vals = d.values;
    const unit = (t as unknown as { unit: TimeUnit }).unit;
    const perMs = unit === TimeUnit.SECOND ? 1e-3 : unit === TimeUnit.MILLISECOND ? 1 : unit === TimeUnit.MICROSECOND ? 1e3 : 1e6;
    read = (i) => new Date(Math.floor(Number(vals[i]!) / perMs)).toISOString();
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
    case Type.Timestamp:
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
