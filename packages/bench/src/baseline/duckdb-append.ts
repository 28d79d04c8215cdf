// Arrow record batches into a DuckDB table through the appender, one 2048-row data chunk at a time,
// with column buffers copied straight into the chunk's vectors (no per-value JS objects).
import duckdb from '@duckdb/node-bindings';
import {
  DuckDBBigIntType,
  DuckDBDataChunk,
  DuckDBDoubleType,
  DuckDBTimestampMillisecondsType,
  DuckDBVarCharType,
  DuckDBVector,
  type DuckDBAppender,
  type DuckDBType,
} from '@duckdb/node-api';
import { DataType, TimeUnit, type Data, type RecordBatch, type Schema } from 'apache-arrow';

/**
 * Appends the batches' rows to `appender`'s table (columns in schema order) and flushes.
 * Supported column types: int64, float64, timestamp[ms], utf8.
 */
export function appendBatches(appender: DuckDBAppender, schema: Schema, batches: Iterable<RecordBatch>): number {
  const types = schema.fields.map((f) => duckdbType(f.type, f.name));
  const chunk = DuckDBDataChunk.create(types);
  const size = DuckDBVector.standardSize();
  const scratch = new Uint8Array(size * STRING_T);
  let rows = 0;
  for (const batch of batches) {
    const columns = schema.fields.map((_, c) => batch.getChildAt(c)!.data[0]!);
    for (let at = 0; at < batch.numRows; at += size) {
      const n = Math.min(size, batch.numRows - at);
      duckdb.data_chunk_reset(chunk.chunk);
      for (const [c, data] of columns.entries()) {
        const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
        if (DataType.isUtf8(data.type)) copyStrings(vector, data, at, n, scratch);
        else copyFixed(vector, data, at, n);
        copyValidity(vector, data, at, n);
      }
      duckdb.data_chunk_set_size(chunk.chunk, n);
      appender.appendDataChunk(chunk);
    }
    rows += batch.numRows;
  }
  appender.flushSync();
  return rows;
}

/** DuckDB's string_t: 4-byte length, then 12 inline bytes or a 4-byte prefix and a pointer. */
const STRING_T = 16;
const INLINE_MAX = 12;

function duckdbType(type: DataType, column: string): DuckDBType {
  if (DataType.isInt(type) && type.bitWidth === 64 && type.isSigned) return DuckDBBigIntType.instance;
  if (DataType.isFloat(type) && type.ArrayType === Float64Array) return DuckDBDoubleType.instance;
  // the appender casts TIMESTAMP_MS to the table's TIMESTAMP (µs)
  if (DataType.isTimestamp(type) && type.unit === TimeUnit.MILLISECOND) return DuckDBTimestampMillisecondsType.instance;
  if (DataType.isUtf8(type)) return DuckDBVarCharType.instance;
  throw new Error(`appendBatches: column ${column} has unsupported type ${type}`);
}

function copyFixed(vector: duckdb.Vector, data: Data, at: number, n: number): void {
  const values = data.values as ArrayBufferView & { BYTES_PER_ELEMENT: number };
  const width = values.BYTES_PER_ELEMENT;
  duckdb.copy_data_to_vector(vector, 0, values.buffer as ArrayBuffer, values.byteOffset + (data.offset + at) * width, n * width);
}

/** Short strings are written inline into string_t slots; long ones go through DuckDB's string heap. */
function copyStrings(vector: duckdb.Vector, data: Data, at: number, n: number, slots: Uint8Array): void {
  const offsets = data.valueOffsets as Int32Array;
  const bytes = data.values as Uint8Array;
  const lengths = new DataView(slots.buffer);
  const base = data.offset + at;
  let long = false;
  slots.fill(0, 0, n * STRING_T);
  for (let i = 0; i < n; i++) {
    const start = offsets[base + i]!;
    const len = offsets[base + i + 1]! - start;
    if (len > INLINE_MAX) {
      long = true;
      continue;
    }
    const slot = i * STRING_T;
    lengths.setUint32(slot, len, true);
    for (let j = 0; j < len; j++) slots[slot + 4 + j] = bytes[start + j]!;
  }
  duckdb.copy_data_to_vector(vector, 0, slots.buffer as ArrayBuffer, 0, n * STRING_T);
  if (!long) return;
  for (let i = 0; i < n; i++) {
    const start = offsets[base + i]!;
    const end = offsets[base + i + 1]!;
    if (end - start > INLINE_MAX) duckdb.vector_assign_string_element_len(vector, i, bytes.subarray(start, end));
  }
}

/** Arrow and DuckDB share the validity layout (LSB-first bitmap, 1 = valid); chunk starts are byte-aligned. */
function copyValidity(vector: duckdb.Vector, data: Data, at: number, n: number): void {
  if (data.nullCount === 0 || !data.nullBitmap) return;
  const bit = data.offset + at;
  if (bit % 8 !== 0) throw new Error(`appendBatches: null bitmap at bit ${bit} is not byte-aligned`);
  const mask = data.nullBitmap;
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(vector, 0, mask.buffer as ArrayBuffer, mask.byteOffset + bit / 8, Math.ceil(n / 8));
}
