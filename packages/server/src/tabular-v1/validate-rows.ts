// Checks an insert's rows beyond what the engine checks: shape, unknown columns, geometry WKT; reads the
// JSON forms of values JSON has no type for (bytes as base64, int64 beyond 2^53 as decimal strings or as
// the bigints the v1 scope's parser reads, non-finite floats as "NaN", "Infinity", "-Infinity").
import { DataType, type Field, type Schema } from 'apache-arrow';
import { badRequest } from '../errors.js';
import { jsonText } from '../exact-json.js';
import { fromWkt } from '../geometry/jsts.js';

/**
 * The rows of `{data: [...]}` as objects; 400 naming the row and column for a non-object row, an
 * unknown column or a geometry that is not WKT. Values are read as `jsonValueReader` reads them (the
 * forms `list` answers, and integers beyond 2^53 exactly). Types, int64/uint64 ranges and nullability
 * are the engine's insert check.
 */
export function validateRows(data: unknown, schema: Schema, max: number): Record<string, unknown>[] {
  if (!Array.isArray(data)) throw badRequest('data: expected {"data": [ {<column>: <value>}, … ]}');
  if (data.length > max) throw badRequest(`data: at most ${max} rows per request, got ${data.length}`);
  const columns = new Set(schema.fields.map((f) => f.name));
  const geometry = schema.fields.filter((f) => f.metadata.get('class') === 'geometry' && String(f.type) === 'Utf8').map((f) => f.name);
  data.forEach((row, i) => {
    if (Array.isArray(row)) throw badRequest(`row ${i}: expected an object of column to value, got a list of values without column names`, 'InvalidData');
    if (typeof row !== 'object' || row === null) throw badRequest(`row ${i}: expected an object of column to value`, 'InvalidData');
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
      if (!ok) throw badRequest(`row ${i}, column "${g}": expected a WKT geometry such as "POINT (10 60)", got ${jsonText(v)?.slice(0, 60)}`, 'InvalidData');
    }
  });
  const read = jsonValueReader(schema);
  return (data as Record<string, unknown>[]).map((row, i) => read(row, `row ${i}`));
}

/**
 * A function giving `row` with its JSON-encoded values decoded (base64 → bytes, decimal strings →
 * bigint, "NaN"/"Infinity"/"-Infinity" → number) for the columns of `schema` that need it; other
 * rows come back as they are. An integer beyond 2^53 (a bigint, as the v1 scope's parser reads it)
 * stays exact in an int64/uint64 column (the engine checks its range) and is the nearest double in
 * any other, as JSON.parse would have read it. 400 (`where`, column) for an int64/uint64 value given as
 * an unsafe double (written with a fraction or exponent, see `checkSafeInteger`).
 */
export function jsonValueReader(schema: Schema): (row: Record<string, unknown>, where: string) => Record<string, unknown> {
  const binary = schema.fields.filter((f) => DataType.isBinary(f.type) || DataType.isLargeBinary(f.type)).map((f) => f.name);
  const wide = schema.fields.filter(isInt64).map((f) => f.name);
  const floats = schema.fields.filter((f) => DataType.isFloat(f.type)).map((f) => f.name);
  const narrow = schema.fields.filter((f) => !isInt64(f)).map((f) => f.name);
  return (row, where) => {
    let out = row;
    const set = (k: string, v: unknown) => {
      if (out === row) out = { ...row };
      out[k] = v;
    };
    // an integer beyond 2^53 outside an int64/uint64 column: what JSON.parse reads (and the engine judges)
    for (const c of narrow) {
      const v = row[c];
      if (typeof v === 'bigint') set(c, Number(v));
    }
    for (const c of binary) {
      const v = row[c];
      if (typeof v !== 'string') continue;
      if (!BASE64.test(v)) throw badRequest(`${where}, column "${c}": binary values are base64 text, got ${JSON.stringify(v).slice(0, 60)}`, 'InvalidData');
      set(c, Buffer.from(v, 'base64'));
    }
    // in an int64/uint64 column a decimal string becomes the exact bigint, and a bigint stays one
    for (const c of wide) {
      const v = row[c];
      if (typeof v === 'string' && /^-?[0-9]{1,20}$/.test(v)) set(c, BigInt(v));
      else if (typeof v === 'number') checkSafeInteger(v, `${where}, column "${c}"`);
    }
    for (const c of floats) {
      const v = row[c];
      if (typeof v === 'string' && Object.hasOwn(NON_FINITE, v)) set(c, NON_FINITE[v]);
    }
    return out;
  };
}

/**
 * 400 for an integral double beyond ±2^53 given for an int64/uint64 column (`where` names the place):
 * it may be a rounded neighbour of what was meant, so storing or comparing it could use the wrong
 * integer. The v1 scope reads integers written as such exactly (bigints); a double gets here from a
 * number written with a fraction or an exponent (`9007199254740993.0`, `1e16`).
 */
export function checkSafeInteger(v: number, where: string, code = 'InvalidData'): void {
  if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
    throw badRequest(`${where}: the JSON number ${v} is beyond 2^53 and written with a fraction or exponent, so it was read as a double and may have lost digits; write 64-bit integers without them (9007199254740993) or as decimal strings ("9007199254740993")`, code);
  }
}

/**
 * A filter value compared with int64/uint64 column `column`: a decimal string (as `list` writes values
 * beyond 2^53) as the exact bigint, other values (a bigint the v1 scope's parser read exactly, too) as
 * they are; 400 for an unsafe double (see `checkSafeInteger`) or a string that is not a decimal integer.
 */
export function int64FilterValue(v: unknown, column: string): unknown {
  const where = `filter value for column '${column}'`;
  if (typeof v === 'number') checkSafeInteger(v, where, 'QueryType');
  if (typeof v !== 'string') return v;
  if (!/^-?[0-9]{1,20}$/.test(v)) throw badRequest(`${where}: expected an integer (a number, or a decimal string beyond 2^53), got ${JSON.stringify(v).slice(0, 60)}`, 'QueryType');
  return BigInt(v);
}

/** Whether `f` is an int64 or uint64 column, whose values `list` writes as decimal strings beyond 2^53. */
export function isInt64(f: Field): boolean {
  return DataType.isInt(f.type) && f.type.bitWidth === 64;
}

/** The strings `list` writes for the floats JSON has no number for. */
const NON_FINITE: Readonly<Record<string, number>> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
