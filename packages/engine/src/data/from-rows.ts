// Row objects to one record batch of the table's schema: blocks of rows, each checked for unknown
// keys and then converted a column at a time; the error reported is the one at the lowest row.
import { type Data, RecordBatch, type Schema, Table, Vector } from 'apache-arrow';
import { type DataContext, RowError, describeValue, invalidData } from './fail.js';
import { makeBatch } from './layout.js';
import { gatherOf } from './gather.js';
import { columnBuilder } from './write/column.js';
import { type Alloc, heapAlloc } from './write/writer.js';

/**
 * Converts row objects into one batch of `schema`, its buffers from `alloc`; throws InvalidData
 * naming the first bad row.
 */
export function rowsToBatch(schema: Schema, rows: readonly unknown[], ctx: DataContext, alloc: Alloc = heapAlloc): RecordBatch {
  const n = rows.length;
  const builders = schema.fields.map((f) => columnBuilder(f, n, alloc));
  const gathers = schema.fields.map((f) => gatherOf(f.name));
  const checkKeys = keyChecker(schema);
  let failure: Failure | null = null;
  let limit = n;
  // blocks keep a row's objects in cache from one column to the next; after a failure at row r,
  // the columns still to run look only at the rows before r
  for (let lo = 0; lo < limit; lo += BLOCK) {
    let hi = Math.min(limit, lo + BLOCK);
    failure = checkKeys(rows, lo, hi) ?? failure;
    if (failure) limit = hi = failure.row;
    for (let j = 0; j < builders.length; j++) {
      const values = gathers[j]!(rows, lo, hi);
      try {
        builders[j]!.write(values, lo, hi);
      } catch (e) {
        if (!(e instanceof RowError)) throw e;
        failure = { row: e.row, column: schema.fields[j]!.name, message: e.message, value: e.value };
        limit = hi = e.row;
      }
    }
  }
  if (failure) throw invalidData(ctx, failure.message, failure);
  return makeBatch(schema, builders.map((b) => b.finish()), n);
}

/**
 * Converts whole staged columns (`columns[j][i]`: column j of row i, rows 0..n-1) into one batch,
 * as `rowsToBatch` converts gathered blocks; `failure` is a bad row found before (an unknown key):
 * only the rows before it are checked, and it is reported unless a lower row fails. `ready[j]`,
 * when given, is column j converted already (it holds no value that could fail). The other
 * columns' buffers come from `alloc`.
 */
export function convertColumns(
  schema: Schema,
  columns: readonly (readonly unknown[])[],
  n: number,
  failure: Failure | null,
  ctx: DataContext,
  ready: readonly (Data | null)[] = [],
  alloc: Alloc = heapAlloc,
): RecordBatch {
  const builders = schema.fields.map((f, j) => (ready[j] ? null : columnBuilder(f, n, alloc)));
  let limit = failure ? failure.row : n;
  for (let j = 0; j < builders.length; j++) {
    try {
      builders[j]?.write(columns[j]!, 0, limit);
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      failure = { row: e.row, column: schema.fields[j]!.name, message: e.message, value: e.value };
      limit = e.row;
    }
  }
  if (failure) throw invalidData(ctx, failure.message, failure);
  return makeBatch(schema, builders.map((b, j) => b?.finish() ?? ready[j]!), n);
}

/** The message for a key or field that is not a column of the table. */
export function unknownColumn(name: string, schema: Schema): string {
  const names = schema.fields.map((f) => f.name);
  const list = names.length > 20 ? `${names.slice(0, 20).join(', ')}, …` : names.join(', ');
  return `unknown column "${name}"; the table's columns are ${list}`;
}

const BLOCK = 2048;

/** The first bad row of a conversion: where, and what is wrong. */
export interface Failure {
  readonly row: number;
  readonly column?: string;
  readonly message: string;
  readonly value?: unknown;
}

// A checker of rows lo..hi-1 returning the first that is not a row object or has a key the schema
// lacks. A row whose keys are those of the last checked row, in the same order, passes after a
// for-in walk comparing interned strings by pointer (no allocation, unlike Object.keys).
function keyChecker(schema: Schema): (rows: readonly unknown[], lo: number, hi: number) => Failure | null {
  const names = new Set(schema.fields.map((f) => f.name));
  let known: string[] = [];
  return (rows, lo, hi) => {
    for (let row = lo; row < hi; row++) {
      const r = rows[row];
      if (typeof r !== 'object' || r === null || Array.isArray(r)) return notARow(row, r);
      if (sameKeys(r, known)) continue;
      if (isExotic(r)) return notARow(row, r);
      const keys = Object.keys(r);
      for (const key of keys) {
        if (!names.has(key)) return { row, column: key, message: unknownColumn(key, schema), value: (r as Record<string, unknown>)[key] };
      }
      known = keys;
    }
    return null;
  };
}

/**
 * True when `row`'s enumerable keys are `keys`, in that order (and there is at least one): a for-in
 * walk comparing interned strings by pointer, no allocation (unlike Object.keys).
 */
export function sameKeys(row: object, keys: readonly string[]): boolean {
  let k = 0;
  for (const key in row) if (key !== keys[k++]) return false;
  return k === keys.length && k !== 0;
}

function isExotic(r: object): boolean {
  if (r instanceof Date || r instanceof Map || r instanceof Set || r instanceof ArrayBuffer || ArrayBuffer.isView(r)) return true;
  return RecordBatch.isRecordBatch(r) || Table.isTable(r) || Vector.isVector(r);
}

function notARow(row: number, r: unknown): Failure {
  const hint = RecordBatch.isRecordBatch(r) ? '; pass several batches as one Arrow Table' : '';
  return { row, message: `expected a row object, got ${describeValue(r)}${hint}`, value: r };
}
