// A DuckDB query result materialised as an Arrow Table: each result chunk's vectors are copied out
// as whole buffers (vector_get_data) and wrapped as Arrow data, one RecordBatch per chunk.
import duckdb from '@duckdb/node-bindings';
import { DuckDBTypeId, type DuckDBDataChunk, type DuckDBResult } from '@duckdb/node-api';
import {
  DataType,
  Field,
  Float64,
  Int32,
  Int64,
  RecordBatch,
  Schema,
  Struct,
  Table,
  TimestampMicrosecond,
  Utf8,
  makeData,
  type Data,
} from 'apache-arrow';

/**
 * Fetches every chunk of `result` and converts it to Arrow (TIMESTAMP stays microseconds, as in DuckDB's
 * own Arrow export). Supported column types: BIGINT, INTEGER, DOUBLE, TIMESTAMP, VARCHAR.
 */
export async function resultToArrow(result: DuckDBResult): Promise<Table> {
  const schema = new Schema(
    result.columnNames().map((name, c) => new Field(name, arrowType(result.columnTypeId(c), name), true)),
  );
  const batches: RecordBatch[] = [];
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    batches.push(chunkToBatch(schema, chunk));
  }
  return batches.length > 0 ? new Table(batches) : new Table(schema);
}

function arrowType(id: DuckDBTypeId, column: string): DataType {
  switch (id) {
    case DuckDBTypeId.BIGINT:
      return new Int64();
    case DuckDBTypeId.INTEGER:
      return new Int32();
    case DuckDBTypeId.DOUBLE:
      return new Float64();
    case DuckDBTypeId.TIMESTAMP:
      return new TimestampMicrosecond();
    case DuckDBTypeId.VARCHAR:
      return new Utf8();
    default:
      throw new Error(`resultToArrow: column ${column} has unsupported type ${DuckDBTypeId[id]}`);
  }
}

function chunkToBatch(schema: Schema, chunk: DuckDBDataChunk): RecordBatch {
  const n = chunk.rowCount;
  const children = schema.fields.map((field, c) => {
    const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
    const validity = duckdb.vector_get_validity(vector, Math.ceil(n / 64) * 8);
    const nullBitmap = validity ?? undefined;
    const nullCount = validity ? countNulls(validity, n) : 0;
    if (DataType.isUtf8(field.type)) {
      return stringData(field.type, duckdb.vector_get_data(vector, n * 16), n, nullBitmap, nullCount);
    }
    const ArrayType = (field.type as DataType & { ArrayType: typeof Float64Array }).ArrayType;
    const bytes = duckdb.vector_get_data(vector, n * ArrayType.BYTES_PER_ELEMENT);
    const values = new ArrayType(bytes.buffer, bytes.byteOffset, n);
    return makeData({ type: field.type, length: n, nullCount, nullBitmap, data: values } as never) as Data;
  });
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children }));
}

/** Decodes n string_t slots (length, then 12 inline bytes or a 4-byte prefix and a pointer) into utf8. */
function stringData(type: Utf8, slots: Uint8Array, n: number, nullBitmap: Uint8Array | undefined, nullCount: number) {
  const view = new DataView(slots.buffer, slots.byteOffset, slots.byteLength);
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const valid = !nullBitmap || ((nullBitmap[i >> 3]! >> (i & 7)) & 1) === 1;
    offsets[i + 1] = offsets[i]! + (valid ? view.getUint32(i * 16, true) : 0);
  }
  const bytes = new Uint8Array(offsets[n]!);
  for (let i = 0; i < n; i++) {
    const at = offsets[i]!;
    const len = offsets[i + 1]! - at;
    if (len <= 12) {
      for (let j = 0, from = i * 16 + 4; j < len; j++) bytes[at + j] = slots[from + j]!;
    } else {
      bytes.set(duckdb.get_data_from_pointer(slots.buffer as ArrayBuffer, slots.byteOffset + i * 16 + 8, len), at);
    }
  }
  return makeData({ type, length: n, nullCount, nullBitmap, valueOffsets: offsets, data: bytes });
}

function countNulls(validity: Uint8Array, n: number): number {
  let valid = 0;
  for (let i = 0; i < n; i++) valid += (validity[i >> 3]! >> (i & 7)) & 1;
  return n - valid;
}
