// Worker side of Parquet ingest after decoding: a conformed row group cut at partition boundaries,
// fixed-width values copied straight into the partitions' shared buffers (placed), other columns
// copied into shared memory of their own, each with its zone map (and a placed column's stretch with
// its CRC-32), made here while the rows are in this core's cache: the main thread neither copies
// nor reads a fixed-width value.
import { type Data, type DataType, type RecordBatch, Type } from 'apache-arrow';
import type { ZoneStats } from '../../expr/kernel.js';
import { crc32 } from 'node:zlib';
import { fixedData, zeroOffset } from '../../data/layout.js';
import { zoneStats } from '../../storage/zonemap.js';
import { sharedCopy } from '../../exec/arrays.js';
import { sharedBuffer } from '../../exec/shared-memory.js';

/** Where one stretch of a row group goes: rows [groupRow, groupRow + rows) at partition row partRow. */
export interface PartTarget {
  readonly groupRow: number;
  readonly rows: number;
  readonly partRow: number;
  /** Per table column, the bytes of the partition's values buffer (placed columns), else null. */
  readonly placed: readonly (Uint8Array | null)[];
}

/** One column of a piece: its nulls and zone map, and its buffers unless they were placed. */
export interface ColumnPiece {
  readonly nullCount: number;
  /** Validity bits of the piece's rows from bit 0, in shared memory; null when there is no null. */
  readonly validity: Uint8Array | null;
  readonly zone: ZoneStats;
  /** Placed columns: the CRC-32 of the value bytes placed (the piece's rows × the value width). */
  readonly crc?: number;
  /** Columns not placed: the values (bool bits, var-width bytes) and var-width offsets, offset 0, shared. */
  readonly values?: Uint8Array;
  readonly offsets?: Uint8Array;
}

/** Rows of one target, all columns. */
export interface Piece {
  readonly target: number;
  readonly rows: number;
  readonly columns: readonly ColumnPiece[];
}

/** True for column types whose values the Parquet workers write into the partition directly. */
export function isPlaced(type: DataType): boolean {
  switch (type.typeId) {
    case Type.Int:
    case Type.Float:
    case Type.Date:
    case Type.Timestamp:
      return true;
    default:
      return false;
  }
}

/** Gives shared memory of at least `bytes` bytes (a pool's buffer may be larger). */
export type Alloc = (bytes: number) => SharedArrayBuffer;

/**
 * Places the rows of `batch` (conformed, offset-0 children), which are rows [batchRow, batchRow +
 * batch.numRows) of its row group, into the `targets` they overlap; returns the pieces in row order.
 * The copies of columns not placed go to buffers from `alloc`.
 */
export function placeBatch(batch: RecordBatch, batchRow: number, targets: readonly PartTarget[], alloc: Alloc = sharedBuffer): Piece[] {
  const pieces: Piece[] = [];
  targets.forEach((t, target) => {
    const from = Math.max(t.groupRow, batchRow);
    const to = Math.min(t.groupRow + t.rows, batchRow + batch.numRows);
    if (from >= to) return;
    const columns = batch.data.children.map((column, c) => {
      const slice = from === batchRow && to - from === column.length ? column : column.slice(from - batchRow, to - from);
      const placed = t.placed[c];
      return placed ? placeColumn(slice, placed, t.partRow + (from - t.groupRow)) : copyColumn(slice, alloc);
    });
    pieces.push({ target, rows: to - from, columns });
  });
  return pieces;
}

// fixed-width values into the partition's buffer at `row`, then their zone map and CRC-32 read from
// there while they are in this core's cache. Typed-array loops run ~1.7× slower in this wasm
// isolate, but the main thread would read them later from memory: for the bench's 1M-row file the
// two workers spend ~26 ms more CPU here, where the main thread spent ~47 ms.
function placeColumn(slice: Data, placed: Uint8Array, row: number): ColumnPiece {
  const values = slice.values as ArrayBufferView & { BYTES_PER_ELEMENT: number };
  const width = values.BYTES_PER_ELEMENT;
  const bytes = placed.subarray(row * width, (row + slice.length) * width);
  bytes.set(new Uint8Array(values.buffer, values.byteOffset, slice.length * width));
  const validity = validityOf(slice);
  const own = new (slice.type.ArrayType as new (b: ArrayBufferLike, at: number, n: number) => ArrayBufferView)(bytes.buffer, bytes.byteOffset, slice.length);
  const zone = zoneStats(fixedData(slice.type, slice.length, own, validity ?? undefined, slice.nullCount));
  return { nullCount: slice.nullCount, validity, zone, crc: crc32(bytes) };
}

// any other layout: offset 0, every buffer copied into shared memory
function copyColumn(slice: Data, alloc: Alloc): ColumnPiece {
  const data = zeroOffset(slice);
  const zone = zoneStats(data);
  const offsets = data.valueOffsets as (Int32Array | BigInt64Array) | undefined;
  // bool bits, or the bytes the (rebased) offsets reach
  const bytes = offsets ? Number(offsets[data.length]!) : Math.ceil(data.length / 8);
  const piece = { nullCount: data.nullCount, validity: validityOf(data), zone, values: shared(data.values as ArrayBufferView, bytes, alloc) };
  return offsets ? { ...piece, offsets: shared(offsets, (data.length + 1) * offsets.BYTES_PER_ELEMENT, alloc) } : piece;
}

function validityOf(data: Data): Uint8Array | null {
  if (data.nullCount === 0 || !data.nullBitmap) return null;
  const out = new Uint8Array(sharedBuffer(Math.ceil(data.length / 8)));
  const bits = data.nullBitmap;
  for (let i = 0; i < data.length; i++) {
    const j = data.offset + i;
    if ((bits[j >> 3]! >> (j & 7)) & 1) out[i >> 3]! |= 1 << (i & 7);
  }
  return out;
}

// the first `bytes` bytes of `view`, copied into shared memory (the receiver gets them without a copy)
function shared(view: ArrayBufferView, bytes: number, alloc: Alloc): Uint8Array {
  return sharedCopy(new Uint8Array(view.buffer, view.byteOffset, bytes), alloc);
}
