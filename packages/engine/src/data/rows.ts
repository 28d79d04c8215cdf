// Record batches as plain row objects, made one at a time by code generated per key list, straight from the columns.
import type { Data, RecordBatch } from 'apache-arrow';
import { columnKind } from '../schema/types.js';
import { readColumn } from './read/column.js';

/**
 * The rows of a batch as plain objects with the schema's keys in order: 8-32 bit integers and
 * floats as number, int64/uint64 as bigint, bool as boolean, utf8 as string, binary as a
 * Uint8Array copy, timestamps and dates as Date, nulls as null. A Date holds milliseconds, so
 * timestamp[us]/[ns] values are truncated to the millisecond at or before the instant; batches
 * keep them exact.
 * @example
 * batchToRows(batch)[0] // { id: 1n, time: 2024-05-01T00:00:00.000Z, depth: 12.5, platform: 'argo-1' }
 */
export function batchToRows(batch: RecordBatch): Record<string, unknown>[] {
  const make = rowFactory(batch);
  const rows = new Array<Record<string, unknown>>(batch.numRows);
  for (let i = 0; i < rows.length; i++) rows[i] = make(i);
  return rows;
}

/**
 * A function making row `i` of `batch` (as `batchToRows` does) when called, so rows can be made
 * one at a time and die young. Numeric columns without nulls are read from their typed arrays as
 * the row is made; the other columns are read as JS values once, when the factory is made.
 * @example
 * const row = rowFactory(batch); for (let i = 0; i < batch.numRows; i++) use(row(i));
 */
export function rowFactory(batch: RecordBatch): (i: number) => Record<string, unknown> {
  const sources = batch.data.children.map((child) => direct(child) ?? readColumn(child));
  return makerOf(batch.schema.fields.map((f) => f.name))(sources);
}

type Maker = (sources: readonly ArrayLike<unknown>[]) => (i: number) => Record<string, unknown>;

// Code generated per key list: one object literal of all the keys (one V8 shape, one allocation
// site), each value read from its column's source at a constant position in the literal.
const makers = new Map<string, Maker>();
const MAX_CACHED = 10_000;

function makerOf(names: readonly string[]): Maker {
  const id = JSON.stringify(names);
  let make = makers.get(id);
  if (make === undefined) {
    if (makers.size >= MAX_CACHED) makers.clear();
    // a quoted "__proto__" key in a literal would set the prototype; the computed form defines it
    const props = names.map((n, j) => `${n === '__proto__' ? `[${JSON.stringify(n)}]` : JSON.stringify(n)}: s${j}[i]`);
    const locals = names.map((_, j) => `s${j} = s[${j}]`);
    const body = names.length === 0 ? 'return () => ({});' : `const ${locals.join(', ')}; return (i) => ({ ${props.join(', ')} });`;
    make = new Function('s', body) as Maker;
    makers.set(id, make);
  }
  return make;
}

// the typed array of a numeric chunk without nulls (its element is the row's JS value), else null
function direct(data: Data): ArrayLike<unknown> | null {
  const kind = columnKind(data.type);
  if (data.nullCount > 0 || (kind !== 'int' && kind !== 'bigint' && kind !== 'float')) return null;
  return data.values as ArrayLike<unknown>;
}
