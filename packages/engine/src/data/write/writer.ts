// The contract of the column writers (JS values in, one offset-0 Arrow chunk out) and the validity they share.
import type { Data, Field } from 'apache-arrow';
import { missing } from '../fail.js';
import { bitmapBytes } from '../layout.js';

/**
 * Converts one column's values into a chunk of exactly its field's type, filling typed arrays
 * directly, a block of rows at a time (so a row's objects are still in cache for the next column).
 * Value `i` is `src[i][key]` of row objects, or `src[i]` when `key` is null. Each builder reads it
 * as `key === null ? src[i] : (src[i] as Row)[key]` in its own loop: a shared accessor function
 * would share one inline cache across all writers, turn megamorphic and cost twice as much.
 */
export interface ColumnBuilder {
  /** Converts values lo..hi-1; throws RowError at the first one it cannot store exactly. */
  write(src: readonly unknown[], key: string | null, lo: number, hi: number): void;
  /** The chunk of all the rows, once every block is written. */
  finish(): Data;
}

/** Makes the builder of a column of `length` rows. */
export type ColumnWriter = (field: Field, length: number) => ColumnBuilder;

/** A row object, as builders read it. */
export type Row = Record<string, unknown>;

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
