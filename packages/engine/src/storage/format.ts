// Partition file format v2: a fixed prefix, one Arrow IPC stream per column, a footer directory,
// each protected by a CRC-32 (zlib's, `zlib.crc32`).
//
//   [0, 8)    magic "HLCNPART"
//   [8, 12)   format version, u32 little-endian; [12, 60) zero; [60, 64) CRC-32 of [0, 60), u32 LE
//   then, each starting on a 64-byte boundary, one Arrow IPC stream per column (schema, one record
//   batch, end-of-stream), so a scan reads exactly the columns it needs;
//   footer: JSON { part, rows, columns: [{ name, offset, length, crc }] } (crc: the CRC-32 of the
//   segment's bytes), the JSON's CRC-32, its length, the magic (u32 LE each but the magic).
// The footer comes last so columns are written as soon as they are encoded (the directory is also
// kept in the partition's metadata record, which is what readers use and check segments against).
// v1 (until session 11) had no CRCs: [12, 64) zero, a footer without the JSON's CRC, directory
// entries without `crc`; its files are still read, unchecked.
import { type Data, Field, RecordBatch, RecordBatchStreamWriter, Schema, Struct, Table, makeData, makeVector, tableFromIPC } from 'apache-arrow';
import { crc32 } from 'node:zlib';
import { IpcEncoder } from '../data/ipc-encode.js';
import { crc32Combine } from './crc32.js';
import { HaloclineError } from '../errors.js';
import { dataProblem } from '../data/batch-check.js';
import { ipcStreamProblem } from '../data/ipc-verify.js';

export const PART_MAGIC = 'HLCNPART';
export const PART_VERSION = 2;
/** Bytes of the fixed prefix; column segments start here. */
export const PREFIX_BYTES = 64;
const ALIGN = 64;
// where the prefix's own CRC-32 lies (v2)
const PREFIX_CRC = PREFIX_BYTES - 4;

/** Where one column's IPC stream lives inside a partition file. */
export interface SegmentRef {
  readonly name: string;
  readonly offset: number;
  readonly length: number;
  /** CRC-32 (`zlib.crc32`) of the segment's bytes; absent in v1 files (not checked). */
  readonly crc?: number;
}

/** The fixed prefix: magic, format version and the prefix's CRC-32. */
export function encodePrefix(): Uint8Array {
  const head = new Uint8Array(PREFIX_BYTES);
  head.set(Buffer.from(PART_MAGIC, 'latin1'), 0);
  const view = new DataView(head.buffer);
  view.setUint32(8, PART_VERSION, true);
  view.setUint32(PREFIX_CRC, crc32(head.subarray(0, PREFIX_CRC)), true);
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

/** The footer: the column directory as JSON, its CRC-32 and byte length, the magic again. */
export function encodeFooter(part: string, rows: number, columns: readonly SegmentRef[]): Uint8Array {
  const json = Buffer.from(JSON.stringify({ part, rows, columns }), 'utf8');
  const out = new Uint8Array(json.length + 16);
  out.set(json, 0);
  const view = new DataView(out.buffer);
  view.setUint32(json.length, crc32(json), true);
  view.setUint32(json.length + 4, json.length, true);
  out.set(Buffer.from(PART_MAGIC, 'latin1'), json.length + 8);
  return out;
}

/** The directory in a partition file's footer (v2). */
export interface Footer {
  readonly part: string;
  readonly rows: number;
  readonly columns: readonly SegmentRef[];
}

/**
 * The directory of a whole v2 partition file, from its footer; `Corrupt` naming the file when the
 * footer is cut short or damaged. (Readers use the copy in the partition record; this is the
 * file's own, for tools and tests.)
 */
export function decodeFooter(file: Uint8Array, path: string): Footer {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const end = file.length - 8;
  const length = end >= 8 ? view.getUint32(end - 4, true) : -1;
  const start = end - 8 - length;
  if (length < 0 || start < PREFIX_BYTES || Buffer.from(file.subarray(end)).toString('latin1') !== PART_MAGIC) {
    throw new HaloclineError('Corrupt', `${path}: the partition file's footer is missing or cut short`, { path });
  }
  const json = file.subarray(start, start + length);
  if (crc32(json) !== view.getUint32(end - 8, true)) throw new HaloclineError('Corrupt', `${path}: the partition file's footer is damaged (checksum mismatch)`, { path });
  return JSON.parse(Buffer.from(json).toString('utf8')) as Footer;
}

/**
 * Checks the fixed prefix of a partition file; throws `Corrupt` naming the file when it is not a
 * readable version, or its CRC does not match (v2). `checksummed`: the file's record holds segment
 * CRCs, so the file must be v2 (a v1 prefix is damage, not an old file).
 */
export function checkPrefix(prefix: Uint8Array, path: string, checksummed = false): void {
  const magic = Buffer.from(prefix.subarray(0, 8)).toString('latin1');
  if (prefix.length < PREFIX_BYTES || magic !== PART_MAGIC) {
    throw new HaloclineError('Corrupt', `${path} is not a Halocline partition file (bad magic)`, { path });
  }
  const view = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength);
  const version = view.getUint32(8, true);
  if (version !== PART_VERSION && (version !== 1 || checksummed)) {
    const expected = checksummed ? `v${PART_VERSION}` : `v1 or v${PART_VERSION}`;
    throw new HaloclineError('Corrupt', `${path}: got v${version} partition data, expected ${expected}`, { path });
  }
  if (version === PART_VERSION && crc32(prefix.subarray(0, PREFIX_CRC)) !== view.getUint32(PREFIX_CRC, true)) {
    throw new HaloclineError('Corrupt', `${path}: the partition file's prefix is damaged (checksum mismatch)`, { path });
  }
}

/** Whether a partition's directory holds segment CRCs (a v2 file), so its prefix must be v2. */
export const isChecksummed = (segments: readonly SegmentRef[]): boolean => segments.some((s) => s.crc !== undefined);

/**
 * Checks one column's segment, as read, against the CRC in its directory entry (absent: a v1 file,
 * not checked): `Corrupt` naming the file and the column on a mismatch.
 */
export function checkSegment(bytes: Uint8Array, seg: SegmentRef, path: string): void {
  if (seg.crc === undefined) return;
  const got = crc32(bytes);
  if (got !== seg.crc) {
    throw new HaloclineError('Corrupt', `${path}: column ${shownName(seg.name)} is damaged (checksum ${hex(got)}, expected ${hex(seg.crc)})`, { path, column: userColumn(seg.name) });
  }
}

/**
 * The CRC-32 of a segment written as `pieces`, in order (the CRC of their concatenation). `known`
 * gives the CRCs of pieces (by index) computed where their bytes were made, so they are not read again.
 */
export function piecesCrc(pieces: readonly Uint8Array[], known?: ReadonlyMap<number, number>): number {
  let crc = 0;
  pieces.forEach((piece, i) => {
    const given = known?.get(i);
    crc = given === undefined ? crc32(piece, crc) : crc32Combine(crc, given, piece.length);
  });
  return crc;
}

/**
 * Decodes one column's IPC stream (its buffers stay views into `bytes`); bytes that do not decode
 * (a v1 file, unchecked, damaged) are `Corrupt` naming the file and the column. Unless `checked`
 * (its CRC matched: the bytes are as written), the stream's framing and flatbuffer metadata are
 * verified before apache-arrow decodes them (which trusts their offsets and lengths: a damaged one
 * could make it loop or allocate without bound) and the column's buffers after.
 */
export function decodeSegment(bytes: Uint8Array, path: string, column: string, checked = true): Data {
  const damaged = (what: string) => new HaloclineError('Corrupt', `${path}: column ${shownName(column)} does not decode: ${what}`, { path, column: userColumn(column) });
  if (!checked) {
    const problem = ipcStreamProblem(bytes);
    if (problem) throw damaged(problem);
  }
  let table: Table;
  try {
    table = tableFromIPC(bytes);
  } catch (e) {
    throw damaged((e as Error).message);
  }
  const vector = table.getChildAt(0);
  if (!vector || vector.data.length !== 1) {
    throw new HaloclineError('Corrupt', `${path}: column ${shownName(column)} holds ${vector?.data.length ?? 0} chunks, expected 1`, { path, column: userColumn(column) });
  }
  const data = vector.data[0]!;
  const problem = checked ? undefined : dataProblem(data);
  if (problem) throw damaged(problem);
  return data;
}

// a stored column's name as the user knows it: a hidden box column (geo/bbox.ts, `geom\0xmin`) by its geometry column
const userColumn = (stored: string): string => stored.split('\u0000')[0]!;
const shownName = (stored: string): string => {
  const [column, side] = stored.split('\u0000');
  return side === undefined ? `"${column}"` : `"${column}" (its ${side} boxes)`;
};
const hex = (crc: number): string => crc.toString(16).padStart(8, '0');
