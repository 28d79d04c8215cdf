// Writes JS bigints and integral numbers (of any magnitude) into int64 and uint64 columns.
import type { Data, Field } from 'apache-arrow';
import { isSigned, typeName } from '../../schema/types.js';
import { expected } from '../fail.js';
import { putInt64, wordsOf } from '../int64.js';
import { fixedData } from '../layout.js';
import { inexactInt } from './ints.js';
import { type Alloc, type ColumnBuilder, type ColumnWriter, Validity } from './writer.js';

/** int64/uint64 from bigints in range, or integral numbers in range (numbers beyond 2^53 included). */
export const writeBigInts: ColumnWriter = (field, length, alloc) => new BigIntBuilder(field, length, alloc);

class BigIntBuilder implements ColumnBuilder {
  private readonly out: BigInt64Array | BigUint64Array;
  private readonly words: Int32Array;
  private readonly validity: Validity;
  private readonly signed: boolean;
  // numbers must satisfy min <= v < limit: 2^63 and 2^64 are doubles, the maxima are not
  private readonly numbers: readonly [number, number];

  constructor(
    private readonly field: Field,
    private readonly length: number,
    alloc: Alloc,
  ) {
    const signed = (this.signed = isSigned(field.type));
    this.out = signed ? new BigInt64Array(alloc(length * 8), 0, length) : new BigUint64Array(alloc(length * 8), 0, length);
    this.words = wordsOf(this.out);
    this.validity = new Validity(length, field.nullable, alloc);
    this.numbers = signed ? [-(2 ** 63), 2 ** 63] : [0, 2 ** 64];
  }

  write(values: readonly unknown[], lo: number, hi: number): void {
    const { out, words, validity, signed } = this;
    const [nmin, limit] = this.numbers;
    for (let i = lo; i < hi; i++) {
      const v = values[i - lo];
      if (typeof v === 'bigint') {
        // in range when 64-bit wrapping leaves it unchanged (cheaper than two BigInt comparisons)
        if ((signed ? BigInt.asIntN(64, v) : BigInt.asUintN(64, v)) !== v) throw this.inexact(i, v);
        out[i] = v;
      } else if (typeof v === 'number') {
        if (!(v >= nmin && v < limit && Number.isInteger(v))) throw this.inexact(i, v);
        putInt64(words, i, v);
      } else if (v === null || v === undefined) validity.setNull(i, v);
      else throw expected(i, typeName(this.field.type), v);
    }
  }

  finish(): Data {
    const { bitmap, nullCount } = this.validity.finish();
    return fixedData(this.field.type, this.length, this.out, bitmap, nullCount);
  }

  private inexact(row: number, v: number | bigint) {
    const [min, max] = this.signed ? [-(2n ** 63n), 2n ** 63n - 1n] : [0n, 2n ** 64n - 1n];
    return inexactInt(row, v, typeName(this.field.type), min, max);
  }
}
