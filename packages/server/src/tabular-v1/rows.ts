// Arrow batches → JSON-safe rows (int64 as a number when exact, else a string; times ISO; bytes base64).
import { type DataType, type RecordBatch, type Schema, Type } from 'apache-arrow';

/** A row as the v1 API sends it. */
export type JsonRow = Record<string, unknown>;

type Convert = (v: unknown) => unknown;

/** Converters per column of a schema, built once per listing. */
export function rowConverter(schema: Schema): (batch: RecordBatch, i: number) => JsonRow {
  const names = schema.fields.map((f) => f.name);
  const convs = schema.fields.map((f) => converter(f.type));
  return (batch, i) => {
    const out: JsonRow = {};
    for (let c = 0; c < names.length; c++) {
      const v = batch.getChildAt(c)!.get(i);
      out[names[c]!] = v === null || v === undefined ? null : convs[c]!(v);
    }
    return out;
  };
}

function converter(t: DataType): Convert {
  switch (t.typeId) {
    case Type.Int:
      return (v) => (typeof v === 'bigint' ? (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()) : v);
    case Type.Float:
      return (v) => (Number.isFinite(v) ? v : Number.isNaN(v) ? 'NaN' : (v as number) > 0 ? 'Infinity' : '-Infinity');
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
