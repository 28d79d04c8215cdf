// An Arrow record batch conformed to the table's schema: equal columns shared, others cast or null-filled.
import type { Data, Field, RecordBatch, Schema } from 'apache-arrow';
import { typeName } from '../schema/types.js';
import { castData } from './cast/cast.js';
import { type DataContext, RowError, invalidData } from './fail.js';
import { unknownColumn } from './from-rows.js';
import { firstNull, makeBatch, nullData } from './layout.js';

/**
 * `batch` as a batch of exactly `schema` (fields, order, types, metadata; offset-0 children).
 * Columns are matched by name; `firstRow` is the batch's first row within the whole insert, for
 * error rows. Throws InvalidData for an unknown, duplicate or unconvertible column, a value that
 * does not convert exactly, or a null (or missing column) where the schema forbids nulls.
 * `cast` converts a column of another type (alter passes one that also parses and formats text and
 * re-encodes geometry).
 */
export function conformBatch(schema: Schema, batch: RecordBatch, ctx: DataContext, firstRow: number, cast: FieldCast = insertCast): RecordBatch {
  const given = new Map<string, Data>();
  batch.schema.fields.forEach((f, i) => {
    if (given.has(f.name)) throw invalidData(ctx, 'the batch has two columns with this name', { column: f.name });
    if (!schema.fields.some((s) => s.name === f.name)) throw invalidData(ctx, unknownColumn(f.name, schema), { column: f.name });
    given.set(f.name, batch.data.children[i]!);
  });
  const n = batch.numRows;
  const children = schema.fields.map((field) => {
    const data = given.get(field.name);
    const at = (row: number) => (n === 0 ? {} : { row: firstRow + row });
    if (data === undefined) {
      if (!field.nullable) throw invalidData(ctx, 'the column is missing and not nullable', { ...at(0), column: field.name });
      return nullData(field.type, n);
    }
    let out: Data | null;
    try {
      out = cast(data, field);
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      throw invalidData(ctx, e.message, { row: firstRow + e.row, column: field.name, value: e.value });
    }
    if (out === null) {
      throw invalidData(ctx, `expected ${typeName(field.type)}, got a ${typeName(data.type)} column, which does not convert`, { column: field.name });
    }
    const nullAt = field.nullable ? -1 : firstNull(out);
    if (nullAt >= 0) throw invalidData(ctx, 'null in a non-nullable column', { row: firstRow + nullAt, column: field.name });
    return out;
  });
  return makeBatch(schema, children, n);
}

/** Converts an offset-0 chunk to the column `to` (type and metadata); null when it does not convert. */
export type FieldCast = (data: Data, to: Field) => Data | null;

const insertCast: FieldCast = (data, to) => castData(data, to.type);
