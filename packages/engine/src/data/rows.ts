// Record batches as plain row objects, filled a column at a time straight from the typed arrays.
import type { RecordBatch } from 'apache-arrow';
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
  const names = batch.schema.fields.map((f) => f.name);
  const make = rowMaker(names);
  const rows = new Array<Record<string, unknown>>(batch.numRows);
  for (let i = 0; i < rows.length; i++) rows[i] = make();
  names.forEach((name, j) => scatterOf(name)(rows, readColumn(batch.data.children[j]!)));
  return rows;
}

type Scatter = (rows: Record<string, unknown>[], values: readonly unknown[]) => void;

// Code generated per key list and per name, as for the gathers of inserts (see data/gather.ts):
// an object literal of all the keys (one V8 shape, allocation site pretenured), and one
// monomorphic store loop per name instead of a megamorphic `row[name] = v`.
const makers = new Map<string, () => Record<string, unknown>>();
const scatters = new Map<string, Scatter>();
const MAX_CACHED = 10_000;

function rowMaker(names: readonly string[]): () => Record<string, unknown> {
  const id = JSON.stringify(names);
  let make = makers.get(id);
  if (make === undefined) {
    if (makers.size >= MAX_CACHED) makers.clear();
    // a quoted "__proto__" key in a literal would set the prototype; the computed form defines it
    const keys = names.map((n) => (n === '__proto__' ? `[${JSON.stringify(n)}]: null` : `${JSON.stringify(n)}: null`));
    make = new Function(`return () => ({ ${keys.join(', ')} });`)() as () => Record<string, unknown>;
    makers.set(id, make);
  }
  return make;
}

function scatterOf(name: string): Scatter {
  let scatter = scatters.get(name);
  if (scatter === undefined) {
    if (scatters.size >= MAX_CACHED) scatters.clear();
    scatter = new Function('rows', 'values', `for (let i = 0; i < rows.length; i++) rows[i][${JSON.stringify(name)}] = values[i];`) as Scatter;
    scatters.set(name, scatter);
  }
  return scatter;
}
