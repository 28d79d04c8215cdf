// Main-thread side of placed Parquet ingest: one partition being filled. Fixed-width columns live in
// shared buffers the workers write into directly (validity merged here, the zone maps and CRC-32s
// of the workers' pieces put together); other columns are appended from the workers' shared copies
// with the zone maps the workers computed.
import { type DataType, type Schema, Type } from 'apache-arrow';
import { fixedData, varData } from '../../data/layout.js';
import { ColumnAccumulator, PlacedColumn } from '../accumulate.js';
import type { LaidOutPart } from '../../write/laid-out.js';
import type { FilledColumn, OpenLaidOut } from '../source.js';
import { type ColumnPiece, type Piece, isPlaced } from './place.js';
import { sharedBuffer } from '../../exec/shared-memory.js';

/** One partition of `size` rows being filled by pieces in row order. */
export class PartitionFill {
  /** Per column, the bytes of its shared values buffer (placed columns), else null. */
  readonly placed: readonly (Uint8Array | null)[];
  /** The partition's file when it is written as rows land (`laidOut`). */
  readonly file: LaidOutPart | undefined;
  private readonly columns: (PlacedColumn | ColumnAccumulator)[];
  private rows = 0;

  /**
   * `alloc` gives the shared buffers of the placed columns (at least the bytes asked for: a pool's
   * may be larger, and hold a previous user's bytes: every row is written before it is read).
   */
  constructor(
    private readonly schema: Schema,
    readonly size: number,
    laidOut?: OpenLaidOut,
    alloc: (bytes: number) => SharedArrayBuffer = sharedBuffer,
  ) {
    this.placed = schema.fields.map((f) => {
      const bytes = size * bytesPer(f.type);
      return isPlaced(f.type) ? new Uint8Array(alloc(bytes), 0, bytes) : null;
    });
    this.file = laidOut?.(size, this.placed);
    this.columns = schema.fields.map((f, c) => {
      const bytes = this.placed[c];
      if (bytes) return new PlacedColumn(f.type, new (f.type.ArrayType as new (b: ArrayBufferLike, at: number, n: number) => ArrayBufferView & { length: number; BYTES_PER_ELEMENT: number })(bytes.buffer, 0, size));
      const acc = new ColumnAccumulator(f.type);
      acc.reserve(size);
      return acc;
    });
  }

  get full(): boolean {
    return this.rows === this.size;
  }

  /**
   * Adds the next piece of rows (the workers have already written its placed columns); returns the
   * piece's shared buffers it copied, which nothing reads any more (the worker may reuse them).
   */
  add(piece: Piece): SharedArrayBuffer[] {
    const done: SharedArrayBuffer[] = [];
    piece.columns.forEach((col, c) => {
      const column = this.columns[c]!;
      if (column instanceof PlacedColumn) return column.note(piece.rows, col.validity, col.nullCount, col.zone, col.crc);
      column.append(chunkOf(this.schema.fields[c]!.type, piece.rows, col), col.zone);
      if (c === this.file?.growing) this.file.grow(column.sofar()!);
      if (!column.copies) return;
      for (const b of [col.values, col.offsets]) if (b) done.push(b.buffer as SharedArrayBuffer);
    });
    this.file?.land(this.rows, this.rows + piece.rows);
    this.rows += piece.rows;
    return done;
  }

  /** Every column as one offset-0 chunk with its zone map. */
  finish(): FilledColumn[] {
    return this.columns.map((c) => c.finish());
  }
}

function bytesPer(type: DataType): number {
  return (type.ArrayType as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
}

// a worker's copy of a column that is not placed, as a chunk
function chunkOf(type: DataType, rows: number, col: ColumnPiece) {
  const validity = col.validity ?? undefined;
  if (!col.offsets) return fixedData(type, rows, col.values!, validity, col.nullCount);
  const large = type.typeId === Type.LargeUtf8 || type.typeId === Type.LargeBinary;
  const offsets = large ? new BigInt64Array(col.offsets.buffer, col.offsets.byteOffset, rows + 1) : new Int32Array(col.offsets.buffer, col.offsets.byteOffset, rows + 1);
  return varData(type, rows, offsets, col.values!, validity, col.nullCount);
}
