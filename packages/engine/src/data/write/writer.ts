// The contract of the column writers (JS values in, one offset-0 Arrow chunk out) and the validity they share.
import type { Data, Field } from 'apache-arrow';
import { missing } from '../fail.js';
import { bitmapBytes } from '../layout.js';

/**
 * Converts one column's values into a chunk of exactly its field's type, a block of rows at a
 * time, filling typed arrays directly (no Arrow builders).
 */
export interface ColumnBuilder {
  /**
   * Converts the values of rows lo..hi-1, `values[k]` being the value of row `lo + k`; throws
   * RowError (with the row number) at the first value it cannot store exactly.
   */
  write(values: readonly unknown[], lo: number, hi: number): void;
  /** The chunk of all the rows, once every block is written. */
  finish(): Data;
}

/** Makes the builder of a column of `length` rows, its buffers from `alloc`. */
export type ColumnWriter = (field: Field, length: number, alloc: Alloc) => ColumnBuilder;

/**
 * Where a builder's buffers come from: zeroed memory of at least `bytes` bytes. `heapAlloc` by
 * default; a large insert passes the part writer's pooled shared memory (`Table.insert`), which
 * the part writer then reads as it is, and which goes back to the pool once the rows are written.
 */
export type Alloc = (bytes: number) => ArrayBufferLike;

/** Fresh memory of the JS heap's allocator. */
export const heapAlloc: Alloc = (bytes) => new ArrayBuffer(bytes);

/** A validity bitmap allocated on the first null; rejects nulls when the column is not nullable. */
export class Validity {
  private bits: Uint8Array | undefined;
  private nulls = 0;

  constructor(
    private readonly length: number,
    private readonly nullable: boolean,
    private readonly alloc: Alloc = heapAlloc,
  ) {}

  /** Marks row `i` null (`v` is the null or undefined found there), or throws when not nullable. */
  setNull(i: number, v: unknown): void {
    if (!this.nullable) throw missing(i, v);
    this.bits ??= new Uint8Array(this.alloc(bitmapBytes(this.length)), 0, bitmapBytes(this.length)).fill(0xff);
    this.bits[i >> 3]! &= ~(1 << (i & 7));
    this.nulls++;
  }

  /** The bitmap (undefined without nulls; padding bits cleared) and the null count. */
  finish(): { bitmap: Uint8Array | undefined; nullCount: number } {
    const bits = this.bits;
    if (bits && (this.length & 7) !== 0) bits[bits.length - 1]! &= (1 << (this.length & 7)) - 1;
    return { bitmap: bits, nullCount: this.nulls };
  }
}
