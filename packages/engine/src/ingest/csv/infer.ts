// CSV type inference over the whole file: each column is the narrowest of int64, float64, bool and
// string that every non-empty value of it parses as (empty fields are nulls and say nothing).
import { Bool, type DataType, Float64, Int64, Utf8 } from 'apache-arrow';

/** int64 text: optional sign and decimal digits. */
export const INT_TEXT = /^[+-]?\d+$/;
/** float64 text: decimal or exponent notation, NaN, Infinity/inf with optional sign. */
export const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|infinity)$|^nan$/i;
/** bool text: true or false in any case. */
export const BOOL_TEXT = /^(?:true|false)$/i;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Tracks what one column's values can be. */
export class ColumnGuess {
  private int = true;
  private float = true;
  private bool = true;
  private seen = false;

  see(v: string): void {
    if (v === '') return;
    this.seen = true;
    if (this.int && !(INT_TEXT.test(v) && fitsInt64(v))) this.int = false;
    if (this.float && !this.int && !FLOAT_TEXT.test(v)) this.float = false;
    if (this.bool && !BOOL_TEXT.test(v)) this.bool = false;
  }

  /** The inferred type; a column with no values is a string column. */
  type(): DataType {
    if (!this.seen) return new Utf8();
    if (this.int) return new Int64();
    if (this.float) return new Float64();
    if (this.bool) return new Bool();
    return new Utf8();
  }
}

function fitsInt64(v: string): boolean {
  if (v.length < 19) return true;
  const n = BigInt(v);
  return n >= INT64_MIN && n <= INT64_MAX;
}
