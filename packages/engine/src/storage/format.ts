// Partition file format v1: a versioned header, then one Arrow IPC stream per column.
//
//   [0, 8)    magic "HLCNPART"
//   [8, 12)   format version, u32 little-endian
//   [12, 16)  header length H, u32 little-endian
//   [16, 16+H) header JSON: { part, rows, columns: [{ name, offset, length }] }
//   then, each starting on a 64-byte boundary, one Arrow IPC stream per column (schema, one
//   record batch, end-of-stream), so a scan reads exactly the columns it needs.
import { type Data, RecordBatchStreamWriter, Table, makeVector, tableFromIPC } from 'apache-arrow';
import { HaloclineError } from '../errors.js';

export const PART_MAGIC = 'HLCNPART';
export const PART_VERSION = 1;
const PREFIX = 16;
const ALIGN = 64;

/** Where one column's IPC stream lives inside a partition file. */
export interface SegmentRef {
  readonly name: string;
  readonly offset: number;
  readonly length: number;
}

/** An encoded partition: the file's bytes as pieces, and its column directory. */
export interface EncodedPartition {
  readonly pieces: readonly Uint8Array[];
  readonly segments: readonly SegmentRef[];
  readonly bytes: number;
}

/** Encodes one partition (the columns of a batch, all of `rows` length) into file pieces. */
export function encodePartition(part: string, rows: number, columns: readonly { name: string; data: Data }[]): EncodedPartition {
  const streams = columns.map((c) => encodeSegment(c.name, c.data));
  // lay the segments out after a header sized for the final offsets
  let headerJson = '';
  let segments: SegmentRef[] = [];
  for (let guess = 256; ; guess *= 2) {
    let offset = align(PREFIX + guess);
    segments = streams.map((s, i) => {
      const ref = { name: columns[i]!.name, offset, length: s.length };
      offset = align(offset + s.length);
      return ref;
    });
    headerJson = JSON.stringify({ part, rows, columns: segments });
    if (Buffer.byteLength(headerJson) <= guess) break;
  }
  const dataStart = segments[0]?.offset ?? align(PREFIX + Buffer.byteLength(headerJson));
  const head = new Uint8Array(dataStart);
  head.set(Buffer.from(PART_MAGIC, 'latin1'), 0);
  const view = new DataView(head.buffer);
  view.setUint32(8, PART_VERSION, true);
  const json = Buffer.from(headerJson, 'utf8');
  view.setUint32(12, json.length, true);
  head.set(json, PREFIX);
  const pieces: Uint8Array[] = [head];
  let pos = dataStart;
  streams.forEach((s, i) => {
    pieces.push(s);
    pos += s.length;
    const next = i + 1 < segments.length ? segments[i + 1]!.offset : align(pos);
    if (next > pos) pieces.push(new Uint8Array(next - pos));
    pos = next;
  });
  return { pieces, segments, bytes: pos };
}

/** Checks the fixed prefix of a partition file; throws `Corrupt` naming the file when it is not v1. */
export function checkPrefix(prefix: Uint8Array, path: string): void {
  const magic = Buffer.from(prefix.subarray(0, 8)).toString('latin1');
  if (prefix.length < PREFIX || magic !== PART_MAGIC) {
    throw new HaloclineError('Corrupt', `${path} is not a Halocline partition file (bad magic)`, { path });
  }
  const version = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength).getUint32(8, true);
  if (version !== PART_VERSION) {
    throw new HaloclineError('Corrupt', `${path}: got v${version} partition data, expected v${PART_VERSION}`, { path });
  }
}

/** Bytes of the fixed prefix that `checkPrefix` needs. */
export const PREFIX_BYTES = PREFIX;

/** Decodes one column's IPC stream (its buffers stay views into `bytes`). */
export function decodeSegment(bytes: Uint8Array, path: string): Data {
  const table = tableFromIPC(bytes);
  const vector = table.getChildAt(0);
  if (!vector || vector.data.length !== 1) {
    throw new HaloclineError('Corrupt', `${path}: column segment holds ${vector?.data.length ?? 0} chunks, expected 1`, { path });
  }
  return vector.data[0]!;
}

function encodeSegment(name: string, data: Data): Uint8Array {
  const table = new Table({ [name]: makeVector(data) });
  return RecordBatchStreamWriter.writeAll(table).toUint8Array(true);
}

function align(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}
