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
  const fields = batch.schema.fields;
  // every row starts as a copy of one template, so all rows share one V8 shape
  const template: Record<string, unknown> = {};
  for (const f of fields) Object.defineProperty(template, f.name, { value: null, writable: true, enumerable: true, configurable: true });
  const rows = new Array<Record<string, unknown>>(batch.numRows);
  for (let i = 0; i < rows.length; i++) rows[i] = { ...template };
  fields.forEach((f, j) => readColumn(batch.data.children[j]!, { dst: rows, key: f.name }));
  return rows;
}
