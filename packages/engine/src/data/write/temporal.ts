// Writes Dates, ISO-8601 strings and epoch milliseconds into timestamp (any unit) and date columns.
import { type Data, DateUnit, type Field, TimeUnit } from 'apache-arrow';
import { dateUnit, timeUnit, typeName } from '../../schema/types.js';
import { RowError, describeValue } from '../fail.js';
import { putInt64, wordsOf } from '../int64.js';
import { fixedData } from '../layout.js';
import { putTime, readInstant } from './instant.js';
import { type Alloc, type ColumnBuilder, type ColumnWriter, Validity } from './writer.js';

/** timestamp[s|ms|us|ns] (timezone irrelevant: values are UTC); a value finer than the unit is rejected. */
export const writeTimestamps: ColumnWriter = (field, length, alloc) => new TimestampBuilder(field, length, alloc);

/** date32 (days) and date64 (milliseconds) from values at UTC midnight; a time of day is rejected. */
export const writeDates: ColumnWriter = (field, length, alloc) => new DateBuilder(field, length, alloc);

const MS_PER_DAY = 86_400_000;

class TimestampBuilder implements ColumnBuilder {
  private readonly out: BigInt64Array;
  private readonly words: Int32Array;
  private readonly validity: Validity;
  private readonly unit: TimeUnit;
  private readonly instant = new Float64Array(2);

  constructor(
    private readonly field: Field,
    private readonly length: number,
    alloc: Alloc,
  ) {
    this.out = new BigInt64Array(alloc(length * 8), 0, length);
    this.words = wordsOf(this.out);
    this.validity = new Validity(length, field.nullable, alloc);
    this.unit = timeUnit(field.type);
  }

  write(values: readonly unknown[], lo: number, hi: number): void {
    const { words, validity } = this;
    const millis = this.unit === TimeUnit.MILLISECOND;
    for (let i = lo; i < hi; i++) {
      const v = values[i - lo];
      if (v === null || v === undefined) validity.setNull(i, v);
      else if (millis && v instanceof Date && v.getTime() === v.getTime()) {
        // the common case inline: a valid Date (always within ±8.64e15 ms) into milliseconds
        putInt64(words, i, v.getTime());
      } else this.put(i, v);
    }
  }

  finish(): Data {
    const { bitmap, nullCount } = this.validity.finish();
    return fixedData(this.field.type, this.length, this.out, bitmap, nullCount);
  }

  private put(i: number, v: unknown): void {
    const type = typeName(this.field.type);
    readInstant(i, v, type, this.instant);
    const wrong = putTime(this.words, this.out, i, this.unit, this.instant[0]!, this.instant[1]!);
    if (wrong !== null) throw new RowError(i, `${describeValue(v)} ${wrong} for ${type}`, v);
  }
}

class DateBuilder implements ColumnBuilder {
  private readonly out: Int32Array | BigInt64Array;
  private readonly words: Int32Array | null;
  private readonly validity: Validity;
  private readonly instant = new Float64Array(2);

  constructor(
    private readonly field: Field,
    private readonly length: number,
    alloc: Alloc,
  ) {
    const days = dateUnit(field.type) === DateUnit.DAY;
    this.out = days ? new Int32Array(alloc(length * 4), 0, length) : new BigInt64Array(alloc(length * 8), 0, length);
    this.words = days ? null : wordsOf(this.out as BigInt64Array);
    this.validity = new Validity(length, field.nullable, alloc);
  }

  write(values: readonly unknown[], lo: number, hi: number): void {
    const { out, words, validity, instant } = this;
    const type = typeName(this.field.type);
    for (let i = lo; i < hi; i++) {
      const v = values[i - lo];
      if (v === null || v === undefined) {
        validity.setNull(i, v);
        continue;
      }
      readInstant(i, v, type, instant);
      const ms = instant[0]!;
      if (instant[1] !== 0 || ms % MS_PER_DAY !== 0) {
        throw new RowError(i, `${describeValue(v)} has a time of day; ${type} holds whole days (UTC midnight)`, v);
      }
      if (!(Math.abs(ms / MS_PER_DAY) <= 2147483647)) throw new RowError(i, `${describeValue(v)} is out of range for ${type}`, v);
      if (words) putInt64(words, i, ms);
      else out[i] = ms / MS_PER_DAY;
    }
  }

  finish(): Data {
    const { bitmap, nullCount } = this.validity.finish();
    return fixedData(this.field.type, this.length, this.out, bitmap, nullCount);
  }
}
