// CSV type inference: each column is the narrowest of int64, float64, bool and string that every
// non-empty value seen parses as (empty fields are nulls and say nothing).
import { Bool, type DataType, Float64, Int64, Utf8 } from 'apache-arrow';
import { BOOL_TEXT, floatOf, integerOf } from './text.js';
import { INT64_MAX, INT64_MIN } from './convert.js';


/** Tracks what one column's values can be. */
export class ColumnGuess {
  private int = true;
  private float = true;
  private bool = true;
  private seen = false;

  see(v: string): void {
    if (v === '') return;
    this.seen = true;
    if (this.int && !fitsInt64(integerOf(v))) this.int = false;
    if (this.float && !this.int && floatOf(v) === undefined) this.float = false;
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

function fitsInt64(v: number | bigint | undefined): boolean {
  return typeof v === 'number' || (typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX);
}
