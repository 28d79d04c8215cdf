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

/** Makes the builder of a column of `length` rows. */
export type ColumnWriter = (field: Field, length: number) => ColumnBuilder;

/** A validity bitmap allocated on the first null; rejects nulls when the column is not nullable. */
export class Validity {
  private bits: Uint8Array | undefined;
  private nulls = 0;

  constructor(
    private readonly length: number,
    private readonly nullable: boolean,
  ) {}

  /** Marks row `i` null (`v` is the null or undefined found there), or throws when not nullable. */
  setNull(i: number, v: unknown): void {
    if (!this.nullable) throw missing(i, v);
    this.bits ??= new Uint8Array(bitmapBytes(this.length)).fill(0xff);
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
