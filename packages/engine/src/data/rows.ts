// Record batches as plain row objects, made one at a time by code generated per key list, straight from the columns.
import type { RecordBatch } from 'apache-arrow';
import { columnKind } from '../schema/types.js';
import { zeroOffset } from './layout.js';
import { readColumn } from './read/column.js';
import { textOf } from './read/strings.js';
import { instantsOf } from './read/temporal.js';

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
  const { make, sources } = rowSource(batch);
  const rows = new Array<Record<string, unknown>>(batch.numRows);
  for (let i = 0; i < rows.length; i++) rows[i] = make(sources, i);
  return rows;
}

/**
 * Makes row `i` of a batch from the batch's `sources` (see `rowSource`). One function per key list
 * and way of reading each column, generated once and kept: the code calling it (a replace's
 * iterator) stays optimised from one batch and one transaction to the next, where a closure made
 * per batch would be a new call target each time (and its optimised callers thrown away once it
 * died).
 */
export type RowMaker = (sources: readonly unknown[], i: number) => Record<string, unknown>;

/** A batch's rows, made one at a time: `make(sources, i)` is row `i`. */
export interface RowSource {
  readonly make: RowMaker;
  readonly sources: readonly unknown[];
}

/**
 * What makes the rows of `batch` (as `batchToRows` does) one at a time, so each row can die young.
 * Columns without nulls are read as the row is made: numbers and bigints from their typed arrays,
 * Dates from each value's millisecond (`instantsOf`), strings as substrings of the column decoded
 * once (`textOf`); the other columns (nulls, bools, binary) are read as JS values once, here.
 * @example
 * const { make, sources } = rowSource(batch); for (let i = 0; i < batch.numRows; i++) use(make(sources, i));
 */
export function rowSource(batch: RecordBatch): RowSource {
  const sources: unknown[] = [];
  const how = batch.data.children.map((child) => {
    const data = zeroOffset(child);
    const kind = data.nullCount > 0 ? null : columnKind(data.type);
    if (kind === 'int' || kind === 'bigint' || kind === 'float') sources.push(data.values);
    else if (kind === 'timestamp' || kind === 'date') {
      sources.push(instantsOf(data));
      return 'd';
    } else if (kind === 'utf8' && data.length > 0) {
      const text = textOf(data);
      if (text === null) sources.push(readColumn(data));
      else {
        sources.push(text.at, text.text);
        return 's';
      }
    } else sources.push(readColumn(data));
    return 'v';
  });
  return { make: makerOf(batch.schema.fields.map((f) => f.name), how.join('')), sources };
}

// Code generated per key list and way each column is read: one object literal of all the keys
// (one V8 shape, one allocation site), each value made from its column's source(s) at a constant
// position in the literal: `v` the source's element, `d` a Date of the source's millisecond, `s` a
// substring of the decoded column (two sources: the offsets, then the text).
const makers = new Map<string, RowMaker>();
const MAX_CACHED = 10_000;

function makerOf(names: readonly string[], how: string): RowMaker {
  const id = `${how}:${JSON.stringify(names)}`;
  let make = makers.get(id);
  if (make === undefined) {
    if (makers.size >= MAX_CACHED) makers.clear();
    let at0 = 0;
    const props = names.map((n, j) => {
      // a quoted "__proto__" key in a literal would set the prototype; the computed form defines it
      const key = n === '__proto__' ? `[${JSON.stringify(n)}]` : JSON.stringify(n);
      const at = at0;
      at0 += how[j] === 's' ? 2 : 1;
      if (how[j] === 'd') return `${key}: new Date(s[${at}][i])`;
      if (how[j] !== 's') return `${key}: s[${at}][i]`;
      return `${key}: s[${at + 1}].substring(s[${at}][i], s[${at}][i + 1])`;
    });
    make = new Function('s', 'i', `return { ${props.join(', ')} };`) as RowMaker;
    makers.set(id, make);
  }
  return make;
}
