// Listing files with the engine's own query language: the entries become one Arrow batch, and a
// filter is prepared and compiled exactly as select does (same syntax, same errors).
import { Field, Int64, type RecordBatch, Schema, TimestampMillisecond, Utf8 } from 'apache-arrow';
import { rowsToBatch } from '../data/from-rows.js';
import { columnArrays } from '../exec/arrays.js';
import { type Vars, compileFilter, prepareFilter } from '../expr/index.js';
import { NO_VARS, checkAllUsed } from '../expr/bind.js';
import { HaloclineError } from '../errors.js';
import { type RawEntry, type RawRecord, toEntry } from './entry.js';

/** Options of `list`. */
export interface ListOptions {
  /** Bind variables of the filter: an object for `$name`, an array for `?`. */
  readonly vars?: Vars;
}

/**
 * The columns a list filter can use. `properties` is not among them (the query language has no
 * map type yet); `geometry` is WKT text.
 */
export const rawListSchema = new Schema([
  new Field('id', new Utf8(), false),
  new Field('name', new Utf8(), false),
  new Field('size', new Int64(), false),
  new Field('sha256', new Utf8(), false),
  new Field('mimetype', new Utf8(), true),
  new Field('geometry', new Utf8(), true),
  new Field('created', new TimestampMillisecond(), false),
  new Field('updated', new TimestampMillisecond(), false),
]);

/**
 * The entries of `records` matching `filter` (all without one), in the order given.
 * @example
 * filterRaw(records, 'size < $min and mimetype == "text/csv"', { vars: { min: 1e6 } })
 */
export function filterRaw(records: readonly RawRecord[], filter: string | undefined, options: ListOptions = {}): RawEntry[] {
  const entries = records.map(toEntry);
  if (filter === undefined) {
    checkAllUsed(options.vars, NO_VARS, '');
    return entries;
  }
  if (typeof filter !== 'string') throw new HaloclineError('InvalidArgument', 'a list filter is a query string');
  const prepared = prepareFilter(filter, rawListSchema, options.vars);
  if (prepared.constant !== undefined) return prepared.constant === true ? entries : [];
  if (entries.length === 0) return entries;
  const batch = entryBatch(entries);
  const { columns, kernel } = compileFilter(prepared.typed);
  const cols = columns.map((name) => columnArrays(batch.getChild(name)!.data[0]!));
  const selected = new Int32Array(entries.length);
  const n = kernel(cols, entries.length, selected);
  return Array.from(selected.subarray(0, n), (i) => entries[i]!);
}

function entryBatch(entries: readonly RawEntry[]): RecordBatch {
  const rows = entries.map((e) => ({
    id: e.id,
    name: e.name,
    size: e.size,
    sha256: e.sha256,
    mimetype: e.mimetype,
    geometry: e.geometry,
    created: e.created,
    updated: e.updated,
  }));
  return rowsToBatch(rawListSchema, rows, {});
}
