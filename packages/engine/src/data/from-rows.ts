// Row objects to one record batch of the table's schema: blocks of rows, each checked for unknown
// keys and then converted a column at a time; the error reported is the one at the lowest row.
import { RecordBatch, type Schema, Table } from 'apache-arrow';
import { type DataContext, RowError, describeValue, invalidData } from './fail.js';
import { makeBatch } from './layout.js';
import { columnBuilder } from './write/column.js';

/** Converts row objects into one batch of `schema`; throws InvalidData naming the first bad row. */
export function rowsToBatch(schema: Schema, rows: readonly unknown[], ctx: DataContext): RecordBatch {
  const n = rows.length;
  const builders = schema.fields.map((f) => columnBuilder(f, n));
  const sources = schema.fields.map((f) => source(f.name, rows));
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
      try {
        builders[j]!.write(sources[j]!.src, sources[j]!.key, lo, hi);
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

/** The message for a key or field that is not a column of the table. */
export function unknownColumn(name: string, schema: Schema): string {
  const names = schema.fields.map((f) => f.name);
  const list = names.length > 20 ? `${names.slice(0, 20).join(', ')}, …` : names.join(', ');
  return `unknown column "${name}"; the table's columns are ${list}`;
}

const BLOCK = 2048;

interface Failure {
  readonly row: number;
  readonly column?: string;
  readonly message: string;
  readonly value?: unknown;
}

// Names that plain objects inherit are read as own properties only, up front.
const inherited = new Set(Object.getOwnPropertyNames(Object.prototype));

function source(name: string, rows: readonly unknown[]): { src: readonly unknown[]; key: string | null } {
  if (!inherited.has(name)) return { src: rows, key: name };
  const own = rows.map((r) => (typeof r === 'object' && r !== null && Object.hasOwn(r, name) ? (r as Record<string, unknown>)[name] : undefined));
  return { src: own, key: null };
}

// A checker of rows lo..hi-1 returning the first that is not a row object or has a key the schema
// lacks; a row with the same keys in the same order as the last checked one passes with a few
// pointer comparisons.
function keyChecker(schema: Schema): (rows: readonly unknown[], lo: number, hi: number) => Failure | null {
  const names = new Set(schema.fields.map((f) => f.name));
  let known: string[] | null = null;
  return (rows, lo, hi) => {
    for (let row = lo; row < hi; row++) {
      const r = rows[row];
      if (typeof r !== 'object' || r === null || Array.isArray(r)) return notARow(row, r);
      const keys = Object.keys(r);
      if (known !== null && keys.length !== 0 && sameKeys(keys, known)) continue;
      if (isExotic(r)) return notARow(row, r);
      for (const key of keys) {
        if (!names.has(key)) return { row, column: key, message: unknownColumn(key, schema), value: (r as Record<string, unknown>)[key] };
      }
      known = keys;
    }
    return null;
  };
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isExotic(r: object): boolean {
  return (
    r instanceof Date || r instanceof Map || r instanceof Set || ArrayBuffer.isView(r) || r instanceof ArrayBuffer || RecordBatch.isRecordBatch(r) || Table.isTable(r)
  );
}

function notARow(row: number, r: unknown): Failure {
  const hint = RecordBatch.isRecordBatch(r) ? '; pass several batches as one Arrow Table' : '';
  return { row, message: `expected a row object, got ${describeValue(r)}${hint}`, value: r };
}
