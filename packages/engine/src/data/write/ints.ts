// Writes JS numbers and bigints into 8/16/32-bit integer columns, rejecting anything inexact.
import type { Data, Field } from 'apache-arrow';
import { intBits, isSigned, typeName } from '../../schema/types.js';
import { RowError, expected } from '../fail.js';
import { fixedData } from '../layout.js';
import { type Alloc, type ColumnBuilder, type ColumnWriter, Validity } from './writer.js';

/** int8/16/32 and uint8/16/32 from integral numbers or bigints within the type's range. */
export const writeInts: ColumnWriter = (field, length, alloc) => new IntBuilder(field, length, alloc);

/** The range of an integer field of at most 53 bits. */
export function intRange(field: Field): { min: number; max: number } {
  const bits = intBits(field.type);
  return isSigned(field.type) ? { min: -(2 ** (bits - 1)), max: 2 ** (bits - 1) - 1 } : { min: 0, max: 2 ** bits - 1 };
}

/** The error for a number that is not an integer, or out of the range of an integer type. */
export function inexactInt(row: number, v: number | bigint, type: string, min: number | bigint, max: number | bigint): RowError {
  if (typeof v === 'number' && !Number.isInteger(v)) return new RowError(row, `${v} is not an integer (${type})`, v);
  return new RowError(row, `${v} is out of range for ${type} (${min} to ${max})`, v);
}

class IntBuilder implements ColumnBuilder {
  private readonly out: Int32Array;
  private readonly validity: Validity;
  private readonly min: number;
  private readonly max: number;

  constructor(
    private readonly field: Field,
    private readonly length: number,
    alloc: Alloc,
  ) {
    const Type = field.type.ArrayType as Int32ArrayConstructor;
    this.out = new Type(alloc(length * Type.BYTES_PER_ELEMENT), 0, length);
    this.validity = new Validity(length, field.nullable, alloc);
    ({ min: this.min, max: this.max } = intRange(field));
  }

  write(values: readonly unknown[], lo: number, hi: number): void {
    const { out, validity, min, max } = this;
    for (let i = lo; i < hi; i++) {
      const v = values[i - lo];
      if (typeof v === 'number' && v >= min && v <= max && Number.isInteger(v)) out[i] = v;
      else if (v === null || v === undefined) validity.setNull(i, v);
      else out[i] = this.slow(i, v);
    }
  }

  finish(): Data {
    const { bitmap, nullCount } = this.validity.finish();
    return fixedData(this.field.type, this.length, this.out, bitmap, nullCount);
  }

  // the value of a bigint in range; throws for anything else
  private slow(row: number, v: unknown): number {
    const type = typeName(this.field.type);
    if (typeof v === 'bigint' && v >= BigInt(this.min) && v <= BigInt(this.max)) return Number(v);
    if (typeof v === 'number' || typeof v === 'bigint') throw inexactInt(row, v, type, this.min, this.max);
    throw expected(row, type, v);
  }
}
