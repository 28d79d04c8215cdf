// A file batch made a batch of the table: renamed to table columns, conformed to the schema (the
// insert path's casts, exactness and null checks) and checked like an insert's geometry; shared by
// the main thread (CSV, FlatGeobuf) and the Parquet workers, so errors read the same either way.
import { type RecordBatch, Schema } from 'apache-arrow';
import { conformBatch } from '../data/from-batch.js';
import { makeBatch } from '../data/layout.js';
import { checkSpatial } from '../geo/validate.js';

/**
 * `batch` (file column names) as a batch of `schema`; `rename` maps file to table column names and
 * `firstRow` is the batch's first file row, so errors name the file row and table column.
 */
export function conformFileBatch(schema: Schema, batch: RecordBatch, rename: ReadonlyMap<string, string>, firstRow: number, table: string): RecordBatch {
  const fields = batch.schema.fields.map((f) => f.clone({ name: rename.get(f.name) ?? f.name }));
  const renamed = makeBatch(new Schema(fields), batch.data.children.slice(), batch.numRows);
  const conformed = conformBatch(schema, renamed, { table }, firstRow);
  checkSpatial(schema, [conformed], { table }, firstRow);
  return conformed;
}
