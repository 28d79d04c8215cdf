// Structural checks of record batches decoded from untrusted bytes (a request body, an unchecked file): buffers long enough, offsets in range.
import { type Data, DataType, type RecordBatch } from 'apache-arrow';

/**
 * Rows a batch may declare beyond one per bit of its buffers: columns of type Null carry no buffer,
 * so a body of a few hundred bytes could otherwise declare billions of rows for the engine to store.
 */
export const FREE_ROWS = 1 << 16;

/**
 * Why the buffers of `batch` cannot be what its columns claim, or undefined when they are sound.
 * apache-arrow's reader trusts the body's buffer lengths and offsets; a batch with a string offset
 * past its data would otherwise fail deep in the engine (or be written as it is). Checked per
 * column (dictionaries included): the validity bitmap covers every row, fixed-width values hold
 * every row, variable-width offsets start at 0 or more, never decrease and end within the data,
 * dictionary indices are in range. And the batch declares no more than `FREE_ROWS` rows beyond
 * one per bit of its buffers.
 * @example
 * const problem = batchProblem(batch); if (problem) throw badRequest(problem, 'InvalidData');
 */
export function batchProblem(batch: RecordBatch): string | undefined {
  if (batch.numRows > FREE_ROWS) {
    const bytes = batch.data.children.reduce((n, d) => n + bufferBytes(d), 0);
    if (batch.numRows > FREE_ROWS + 8 * bytes) return `the batch declares ${batch.numRows} rows but carries ${bytes} bytes of column buffers (columns of type Null carry none)`;
  }
  for (let c = 0; c < batch.schema.fields.length; c++) {
    const name = batch.schema.fields[c]!.name;
    const data = batch.data.children[c];
    if (!data) return `column "${name}" has no data`;
    if (data.length < batch.numRows) return `column "${name}" holds ${data.length} values for ${batch.numRows} rows`;
    const problem = dataProblem(data);
    if (problem) return `column "${name}": ${problem}`;
  }
  return undefined;
}

/**
 * Why one column's buffers cannot be what it claims (see `batchProblem`), or undefined when they are
 * sound. Values and offsets index from 0 (arrow-js slices them with the Data), bitmaps from `offset`.
 */
export function dataProblem(d: Data): string | undefined {
  const { offset, length } = d;
  const bitmap = d.nullBitmap as Uint8Array | undefined;
  if (d.nullCount > length) return `${d.nullCount} nulls in ${length} values`;
  if (DataType.isNull(d.type)) return undefined; // every value null, no buffer (pyarrow's type of an all-None column)
  if (d.nullCount > 0 && (bitmap === undefined || bitmap.length * 8 < offset + length)) return 'the validity bitmap is shorter than the column';
  if (DataType.isDictionary(d.type)) return indexProblem(d) ?? (d.dictionary ? d.dictionary.data.map(dataProblem).find((p) => p) : 'no dictionary');
  if (DataType.isUtf8(d.type) || DataType.isBinary(d.type) || DataType.isLargeUtf8(d.type) || DataType.isLargeBinary(d.type)) return offsetsProblem(d);
  if (DataType.isBool(d.type)) return (d.values as Uint8Array).length * 8 < offset + length ? 'the values buffer is shorter than the column' : undefined;
  if (d.values !== undefined && d.children.length === 0 && (d.values as ArrayLike<unknown>).length < length * d.stride) return 'the values buffer is shorter than the column';
  for (const child of d.children) {
    const p = dataProblem(child);
    if (p) return p;
  }
  return undefined;
}

// the bytes of a column's buffers, its children's and its dictionary's included
function bufferBytes(d: Data): number {
  let n = 0;
  for (const b of [d.values, d.valueOffsets, d.nullBitmap, d.typeIds] as (ArrayBufferView | undefined)[]) n += b?.byteLength ?? 0;
  for (const c of d.children) n += bufferBytes(c);
  for (const c of d.dictionary?.data ?? []) n += bufferBytes(c);
  return n;
}

function offsetsProblem(d: Data): string | undefined {
  const offsets = d.valueOffsets as Int32Array | BigInt64Array;
  const size = (d.values as Uint8Array).length;
  if (d.length === 0) return undefined; // writers may leave the offsets of an empty column out
  if (offsets.length < d.length + 1) return 'the offsets buffer is shorter than the column';
  let prev = Number(offsets[0]);
  if (prev < 0) return `value 0 starts at offset ${prev}`;
  for (let i = 1; i <= d.length; i++) {
    const at = Number(offsets[i]);
    if (at < prev) return `value ${i - 1} ends at offset ${at}, before it starts at ${prev}`;
    prev = at;
  }
  return prev > size ? `value ${d.length - 1} ends at offset ${prev}, past the ${size} bytes of data` : undefined;
}

function indexProblem(d: Data): string | undefined {
  const size = d.dictionary?.length ?? 0;
  const indices = d.values as ArrayLike<number | bigint>;
  if (indices.length < d.length) return 'the index buffer is shorter than the column';
  const bitmap = d.nullCount > 0 ? (d.nullBitmap as Uint8Array) : undefined;
  for (let i = 0; i < d.length; i++) {
    const k = d.offset + i;
    if (bitmap && ((bitmap[k >> 3]! >> (k & 7)) & 1) === 0) continue;
    const at = Number(indices[i]);
    if (!(at >= 0 && at < size)) return `row ${i} refers to dictionary entry ${at} of ${size}`;
  }
  return undefined;
}
