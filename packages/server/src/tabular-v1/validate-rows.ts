// Checks an insert's rows beyond what the engine checks: shape, unknown columns, geometry WKT; reads the
// JSON forms of values JSON has no type for (bytes as base64, int64 beyond 2^53 as decimal strings).
import { DataType, type Field, type Schema } from 'apache-arrow';
import { badRequest } from '../errors.js';
import { fromWkt } from '../geometry/jsts.js';

/**
 * The rows of `{data: [...]}` as objects; 400 naming the row and column for a non-object row, an
 * unknown column or a geometry that is not WKT. Values in the forms `list` answers are read back:
 * base64 text in a binary column, a decimal string in an int64/uint64 column. Types and
 * nullability are the engine's insert check.
 */
export function validateRows(data: unknown, schema: Schema, max: number): Record<string, unknown>[] {
  if (!Array.isArray(data)) throw badRequest('data: expected {"data": [ {<column>: <value>}, … ]}');
  if (data.length > max) throw badRequest(`data: at most ${max} rows per request, got ${data.length}`);
  const columns = new Set(schema.fields.map((f) => f.name));
  const geometry = schema.fields.filter((f) => f.metadata.get('class') === 'geometry' && String(f.type) === 'Utf8').map((f) => f.name);
  data.forEach((row, i) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) throw badRequest(`row ${i}: expected an object of column to value`, 'InvalidData');
    for (const k of Object.keys(row)) if (!columns.has(k)) throw badRequest(`row ${i}, column "${k}": no such column (columns: ${[...columns].join(', ')})`, 'InvalidData');
    for (const g of geometry) {
      const v = (row as Record<string, unknown>)[g];
      if (v === undefined || v === null) continue;
      let ok = typeof v === 'string';
      if (ok) {
        try {
          fromWkt(v as string);
        } catch {
          ok = false;
        }
      }
      if (!ok) throw badRequest(`row ${i}, column "${g}": expected a WKT geometry such as "POINT (10 60)", got ${JSON.stringify(v).slice(0, 60)}`, 'InvalidData');
    }
  });
  const read = jsonValueReader(schema);
  return (data as Record<string, unknown>[]).map((row, i) => read(row, `row ${i}`));
}

/**
 * A function giving `row` with its JSON-encoded values decoded (base64 → bytes, decimal strings →
 * bigint) for the columns of `schema` that need it; other rows come back as they are.
 */
export function jsonValueReader(schema: Schema): (row: Record<string, unknown>, where: string) => Record<string, unknown> {
  const binary = schema.fields.filter((f) => DataType.isBinary(f.type) || DataType.isLargeBinary(f.type)).map((f) => f.name);
  const wide = schema.fields.filter(isInt64).map((f) => f.name);
  if (binary.length === 0 && wide.length === 0) return (row) => row;
  return (row, where) => {
    let out = row;
    const set = (k: string, v: unknown) => {
      if (out === row) out = { ...row };
      out[k] = v;
    };
    for (const c of binary) {
      const v = row[c];
      if (typeof v !== 'string') continue;
      if (!BASE64.test(v)) throw badRequest(`${where}, column "${c}": binary values are base64 text, got ${JSON.stringify(v).slice(0, 60)}`, 'InvalidData');
      set(c, Buffer.from(v, 'base64'));
    }
    for (const c of wide) {
      const v = row[c];
      if (typeof v === 'string' && /^-?[0-9]{1,20}$/.test(v)) set(c, BigInt(v));
    }
    return out;
  };
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function isInt64(f: Field): boolean {
  return DataType.isInt(f.type) && f.type.bitWidth === 64;
}
