// PATCH /data/{ref}: the new versions of matched rows, made column by column from their record batches:
// only the patched columns are replaced, every other value is carried over as stored (int64 beyond 2^53,
// timestamps of any unit, bytes, geometry, nulls), never through JS row objects.
import { isHaloclineError, toRecordBatches } from '@halocline/engine';
import { Data, RecordBatch, Schema, Struct } from 'apache-arrow';
import { badRequest } from '../errors.js';

/**
 * A function giving, for a batch of matched rows of the table's `schema`, the batch of their new
 * versions: the columns named in `patch` (JSON values already decoded, see `jsonValueReader`) hold its
 * values, the others are the matched batch's columns, shared. `patch` is checked at once: 400 naming
 * the column for an unknown column or a value the column does not take, before any row is matched.
 * @example
 * const next = rowPatcher(schema, { station: 'S9' }, table); for await (const b of tx.replaceBatches(q)) await tx.insert(next(b));
 */
export function rowPatcher(schema: Schema, patch: Readonly<Record<string, unknown>>, table: string): (batch: RecordBatch) => RecordBatch {
  const names = new Set(schema.fields.map((f) => f.name));
  for (const k of Object.keys(patch)) if (!names.has(k)) throw badRequest(`data, column "${k}": no such column (columns: ${[...names].join(', ')})`, 'InvalidData');
  const patched = new Schema(schema.fields.filter((f) => Object.hasOwn(patch, f.name)));
  if (patched.fields.length === 0) return (batch) => batch;
  // the patched columns for `size` rows, converted (and checked) by the engine as an insert would
  const convert = (size: number): readonly Data[] => {
    try {
      return toRecordBatches(patched, new Array<Readonly<Record<string, unknown>>>(size).fill(patch), { table })[0]!.data.children;
    } catch (e) {
      if (isHaloclineError(e, 'InvalidData')) throw badRequest(e.message.replace(/^row 0, /, 'data, '), 'InvalidData');
      throw e;
    }
  };
  // converted once for the largest batch so far (at least doubling), sliced for smaller ones: the
  // conversion costs at most twice the largest batch, however many rows match
  let made = convert(1);
  return (batch) => {
    const n = batch.numRows;
    if (n > made[0]!.length) made = convert(Math.max(n, 2 * made[0]!.length));
    const children = batch.schema.fields.map((f, i) => {
      const k = patched.fields.findIndex((p) => p.name === f.name);
      return k < 0 ? batch.data.children[i]! : made[k]!.slice(0, n);
    });
    return new RecordBatch(batch.schema, new Data(new Struct(batch.schema.fields), 0, n, 0, undefined, children));
  };
}
