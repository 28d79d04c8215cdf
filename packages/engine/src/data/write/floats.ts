// Writes JS numbers (and bigints exactly representable as doubles) into float32 and float64 columns.
import { type Data, type Field, Precision } from 'apache-arrow';
import { floatPrecision, typeName } from '../../schema/types.js';
import { RowError, expected } from '../fail.js';
import { fixedData } from '../layout.js';
import { type Alloc, type ColumnBuilder, type ColumnWriter, Validity } from './writer.js';

/** float64 stores numbers as they are (NaN and infinities too); float32 rounds them but rejects overflow. */
export const writeFloats: ColumnWriter = (field, length, alloc) => new FloatBuilder(field, length, alloc);

/** The double equal to `v`, or a RowError when no double is. */
export function exactDouble(row: number, v: bigint, type: string): number {
  const d = Number(v);
  if (Number.isFinite(d) && BigInt(d) === v) return d;
  throw new RowError(row, `${v} cannot be represented exactly as ${type}`, v);
}

/** `v` when float32 rounding keeps it finite (or it was not finite to begin with). */
export function checkFloat32(row: number, v: number): number {
  if (Number.isFinite(v) && !Number.isFinite(Math.fround(v))) throw new RowError(row, `${v} is out of range for float32`, v);
  return v;
}

const F32_MAX = 3.4028234663852886e38;

class FloatBuilder implements ColumnBuilder {
  private readonly out: Float64Array | Float32Array;
  private readonly validity: Validity;
  private readonly single: boolean;

  constructor(
    private readonly field: Field,
    private readonly length: number,
    alloc: Alloc,
  ) {
    const Type = field.type.ArrayType as Float64ArrayConstructor;
    this.out = new Type(alloc(length * Type.BYTES_PER_ELEMENT), 0, length);
    this.validity = new Validity(length, field.nullable, alloc);
    this.single = floatPrecision(field.type) === Precision.SINGLE;
  }

  write(values: readonly unknown[], lo: number, hi: number): void {
    const { out, validity, single } = this;
    for (let i = lo; i < hi; i++) {
      const v = values[i - lo];
      if (typeof v === 'number') {
        if (single && Math.abs(v) > F32_MAX) checkFloat32(i, v);
        out[i] = v;
      } else if (v === null || v === undefined) validity.setNull(i, v);
      else if (typeof v === 'bigint') out[i] = single ? checkFloat32(i, exactDouble(i, v, 'float32')) : exactDouble(i, v, 'float64');
      else throw expected(i, typeName(this.field.type), v);
    }
  }

  finish(): Data {
    const { bitmap, nullCount } = this.validity.finish();
    return fixedData(this.field.type, this.length, this.out, bitmap, nullCount);
  }
}
