// Partition file format v1: a fixed prefix, one Arrow IPC stream per column, a footer directory.
//
//   [0, 8)    magic "HLCNPART"
//   [8, 12)   format version, u32 little-endian; [12, 64) zero
//   then, each starting on a 64-byte boundary, one Arrow IPC stream per column (schema, one record
//   batch, end-of-stream), so a scan reads exactly the columns it needs;
//   footer: JSON { part, rows, columns: [{ name, offset, length }] }, its length as u32 LE, magic.
// The footer comes last so columns are written as soon as they are encoded (the directory is also
// kept in the partition's metadata record, which is what readers use).
import { type Data, Field, RecordBatch, RecordBatchStreamWriter, Schema, Struct, Table, makeData, makeVector, tableFromIPC } from 'apache-arrow';
import { IpcEncoder } from '../data/ipc-encode.js';
import { HaloclineError } from '../errors.js';

export const PART_MAGIC = 'HLCNPART';
export const PART_VERSION = 1;
/** Bytes of the fixed prefix; column segments start here. */
export const PREFIX_BYTES = 64;
const ALIGN = 64;

/** Where one column's IPC stream lives inside a partition file. */
export interface SegmentRef {
  readonly name: string;
  readonly offset: number;
  readonly length: number;
}

/** The fixed prefix: magic and format version. */
export function encodePrefix(): Uint8Array {
  const head = new Uint8Array(PREFIX_BYTES);
  head.set(Buffer.from(PART_MAGIC, 'latin1'), 0);
  new DataView(head.buffer).setUint32(8, PART_VERSION, true);
  return head;
}

/** One column as an Arrow IPC stream. */
export function encodeSegment(name: string, data: Data): Uint8Array {
  const table = new Table({ [name]: makeVector(data) });
  return RecordBatchStreamWriter.writeAll(table).toUint8Array(true);
}

/**
 * The bytes of {@link encodeSegment} as pieces, without joining them: the column's value buffers
 * stay views of `data` (no copy of the values); the small pieces between them (message headers,
 * length prefixes, padding) are joined into runs. Writing them in order gives the same bytes.
 * Synchronous: one record batch written straight to a collecting sink (`IpcEncoder`), not a
 * `Table` streamed through an async queue, so a part write runs (and V8 compiles) far less code.
 */
export function segmentPieces(name: string, data: Data): Uint8Array[] {
  // the field as `new Table({ [name]: vector })` makes it (encodeSegment)
  const field = new Field(name, data.type, data.nullable);
  const schema = new Schema([field]);
  const batch = new RecordBatch(schema, makeData({ type: new Struct([field]), length: data.length, nullCount: 0, children: [data] }));
  const enc = new IpcEncoder(schema);
  const pieces = enc.batchChunks(batch);
  pieces.push(enc.end());
  const out: Uint8Array[] = [];
  let small: Uint8Array[] = [];
  const flush = () => {
    if (small.length > 0) out.push(small.length === 1 ? small[0]! : Buffer.concat(small));
    small = [];
  };
  for (const piece of pieces) {
    if (piece.byteLength === 0) continue;
    if (piece.byteLength < SMALL_PIECE) {
      small.push(piece);
      continue;
    }
    flush();
    out.push(piece);
  }
  flush();
  return out;
}

/** Pieces below this many bytes are joined rather than written one by one. */
const SMALL_PIECE = 1 << 16;

/** Zero bytes that bring `position` to the next segment boundary. */
export function padding(position: number): Uint8Array {
  return new Uint8Array(Math.ceil(position / ALIGN) * ALIGN - position);
}

/** The footer: the column directory as JSON, its byte length, the magic again. */
export function encodeFooter(part: string, rows: number, columns: readonly SegmentRef[]): Uint8Array {
  const json = Buffer.from(JSON.stringify({ part, rows, columns }), 'utf8');
  const out = new Uint8Array(json.length + 12);
  out.set(json, 0);
  new DataView(out.buffer).setUint32(json.length, json.length, true);
  out.set(Buffer.from(PART_MAGIC, 'latin1'), json.length + 4);
  return out;
}

/** Checks the fixed prefix of a partition file; throws `Corrupt` naming the file when it is not v1. */
export function checkPrefix(prefix: Uint8Array, path: string): void {
  const magic = Buffer.from(prefix.subarray(0, 8)).toString('latin1');
  if (prefix.length < 12 || magic !== PART_MAGIC) {
    throw new HaloclineError('Corrupt', `${path} is not a Halocline partition file (bad magic)`, { path });
  }
  const version = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength).getUint32(8, true);
  if (version !== PART_VERSION) {
    throw new HaloclineError('Corrupt', `${path}: got v${version} partition data, expected v${PART_VERSION}`, { path });
  }
}

/** Decodes one column's IPC stream (its buffers stay views into `bytes`). */
export function decodeSegment(bytes: Uint8Array, path: string): Data {
  const table = tableFromIPC(bytes);
  const vector = table.getChildAt(0);
  if (!vector || vector.data.length !== 1) {
    throw new HaloclineError('Corrupt', `${path}: column segment holds ${vector?.data.length ?? 0} chunks, expected 1`, { path });
  }
  return vector.data[0]!;
}
