// Insert data of any accepted shape converted to record batches of exactly the table's schema.
import { RecordBatch, type Schema, Table } from 'apache-arrow';
import { type DataContext, describeValue, invalidData } from './fail.js';
import { conformBatch } from './from-batch.js';
import { rowsToBatch } from './from-rows.js';
import { type Alloc, heapAlloc } from './write/writer.js';
import { checkSpatial } from '../geo/validate.js';

/** What an insert accepts: one row object, an array of them, an Arrow RecordBatch or Table. */
export type InsertInput = Readonly<Record<string, unknown>> | readonly Readonly<Record<string, unknown>>[] | RecordBatch | Table;

/**
 * Converts insert data into batches that conform exactly to `schema` (a normalised table schema):
 * same fields, order, types and metadata, every chunk at offset 0. Everything is validated before
 * anything is returned; any problem is an InvalidData error with the 0-based `row` of the input and
 * the `column`, e.g. `row 12, column "depth": expected float64, got string "abc"`.
 * Rows become one batch (its buffers from `alloc`); a Table's batches stay as they come (empty
 * ones dropped); batch columns of the schema's type are shared, zero-copy.
 * @example
 * toRecordBatches(schema, [{ id: 1n, time: new Date(), depth: 12.5 }], { table: 'ctd' })
 */
export function toRecordBatches(schema: Schema, input: InsertInput, ctx: DataContext = {}, alloc: Alloc = heapAlloc): RecordBatch[] {
  const batches = convert(schema, input, ctx, alloc);
  checkSpatial(schema, batches, ctx);
  return batches;
}

function convert(schema: Schema, input: InsertInput, ctx: DataContext, alloc: Alloc): RecordBatch[] {
  if (RecordBatch.isRecordBatch(input)) return nonEmpty([conformBatch(schema, input, ctx, 0)]);
  if (Table.isTable(input)) {
    let first = 0;
    const out = input.batches.map((b) => {
      const batch = conformBatch(schema, b, ctx, first);
      first += b.numRows;
      return batch;
    });
    return nonEmpty(out);
  }
  if (Array.isArray(input)) return input.length === 0 ? [] : [rowsToBatch(schema, input, ctx, alloc)];
  if (typeof input === 'object' && input !== null) return [rowsToBatch(schema, [input], ctx)];
  const accepts = 'a row object, an array of row objects, an Arrow RecordBatch or an Arrow Table';
  throw invalidData(ctx, `insert expects ${accepts}; got ${describeValue(input)}`, { value: input });
}

function nonEmpty(batches: RecordBatch[]): RecordBatch[] {
  return batches.filter((b) => b.numRows > 0);
}
