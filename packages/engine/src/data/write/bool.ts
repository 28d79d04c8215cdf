// Writes JS booleans into bit-packed bool columns.
import type { Data, Field } from 'apache-arrow';
import { expected } from '../fail.js';
import { bitmapBytes, fixedData } from '../layout.js';
import { type Alloc, type ColumnBuilder, type ColumnWriter, Validity } from './writer.js';

/** bool from `true`/`false` only (no 0/1, no strings). */
export const writeBools: ColumnWriter = (field, length, alloc) => new BoolBuilder(field, length, alloc);

class BoolBuilder implements ColumnBuilder {
  private readonly out: Uint8Array;
  private readonly validity: Validity;

  constructor(
    private readonly field: Field,
    private readonly length: number,
    alloc: Alloc,
  ) {
    this.out = new Uint8Array(alloc(bitmapBytes(length)), 0, bitmapBytes(length));
    this.validity = new Validity(length, field.nullable, alloc);
  }

  write(values: readonly unknown[], lo: number, hi: number): void {
    const { out, validity } = this;
    for (let i = lo; i < hi; i++) {
      const v = values[i - lo];
      if (v === true) out[i >> 3]! |= 1 << (i & 7);
      else if (v === null || v === undefined) validity.setNull(i, v);
      else if (v !== false) throw expected(i, 'bool', v);
    }
  }

  finish(): Data {
    const { bitmap, nullCount } = this.validity.finish();
    return fixedData(this.field.type, this.length, this.out, bitmap, nullCount);
  }
}
