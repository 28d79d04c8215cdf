// Which values of a staged row (per-row tx.insert) its columns take at once: typed lanes and inlined tests.
import { type Data, type Field, Precision, TimeUnit, Type } from 'apache-arrow';
import { fieldInfo } from '../schema/metadata.js';
import { columnKind, floatPrecision, intBits, isSigned, timeUnit } from '../schema/types.js';
import { intRange } from './write/ints.js';

/**
 * A column staged straight into a typed array: `f64` (float64) takes numbers, `i64` (int64) bigints
 * in range, `ms` (timestamp[ms]) valid Dates as their milliseconds (a Date then dies with its row
 * instead of living in a staging array); any other value of the column (null, another type, an
 * invalid Date) is kept aside as odd. Each takes exactly what its column writer's common case
 * takes, so a lane's values, converted, are what the writer would have made of them.
 */
export type Lane = 'f64' | 'i64' | 'ms';

/** The lane of a column, or null when its values go into a JS array. */
export function laneOf(f: Field): Lane | null {
  if (f.type.typeId === Type.Float && floatPrecision(f.type) === Precision.DOUBLE) return 'f64';
  if (f.type.typeId === Type.Int && intBits(f.type) === 64 && isSigned(f.type)) return 'i64';
  if (f.type.typeId === Type.Timestamp && timeUnit(f.type) === TimeUnit.MILLISECOND) return 'ms';
  return null;
}

/**
 * A JS test of `v` (inlined in the generated store) that passes only values the column's writer
 * takes as they are and that need no spatial check; a value that fails it is checked the exact way
 * (`RowStage.check`). For a lane column, the values its typed array holds. `MIN` and `MAX` are the
 * int64 bounds, in scope of the generated code.
 * @example
 * acceptOf(new Field('n', new Int32(), true)) // '(v === null || v === undefined) || (typeof v === "number" && ...)'
 */
export function acceptOf(f: Field): string {
  const klass = fieldInfo(f).class;
  const nulls = f.nullable ? '(v === null || v === undefined) || ' : '';
  if (klass === 'geometry') return f.nullable ? '(v === null || v === undefined)' : 'false';
  const lane = laneOf(f);
  if (lane === 'i64') return 'typeof v === "bigint" && v >= MIN && v <= MAX';
  if (lane === 'f64') {
    if (klass === 'latitude') return 'typeof v === "number" && v >= -90 && v <= 90';
    if (klass === 'longitude') return 'typeof v === "number" && v >= -180 && v <= 180';
    return 'typeof v === "number"';
  }
  if (lane === 'ms') return 'v instanceof Date';
  if (klass === 'latitude' || klass === 'longitude') return f.nullable ? '(v === null || v === undefined)' : 'false';
  switch (columnKind(f.type)) {
    case 'utf8':
      return `${nulls}(typeof v === "string" && v.isWellFormed())`;
    case 'binary':
      return `${nulls}v instanceof Uint8Array`;
    case 'bool':
      return `${nulls}typeof v === "boolean"`;
    case 'int': {
      const { min, max } = intRange(f);
      return `${nulls}(typeof v === "number" && v >= ${min} && v <= ${max} && Number.isInteger(v))`;
    }
    case 'bigint': // uint64 (int64 is a lane)
      return `${nulls}(typeof v === "bigint" && v >= 0n && v <= ${2n ** 64n - 1n}n)`;
    case 'float': // float32 (float64 is a lane): finite numbers it can round to
      return `${nulls}(typeof v === "number" && v >= -3.4e38 && v <= 3.4e38)`;
    case 'timestamp': // a valid Date the unit holds (ms is a lane): whole seconds; ±8.64e15 ms in µs; ±9e12 ms in ns
      return `${nulls}(v instanceof Date && ${['v.getTime() % 1000 === 0', 'false', 'v.getTime() === v.getTime()', 'Math.abs(v.getTime()) < 9e12'][timeUnit(f.type)]})`;
    case 'date': // UTC midnight (a valid Date is within ±1e8 days)
      return `${nulls}(v instanceof Date && v.getTime() % 86400000 === 0)`;
    case null:
      return 'false';
  }
}

/** The one value of a chunk written for a check, as spatial checks read it (a number, a string, bytes). */
export function stored(data: Data): unknown {
  if (data.nullCount > 0) return null;
  const kind = columnKind(data.type);
  if (kind === 'float') return (data.values as Float64Array | Float32Array)[0];
  if (kind !== 'utf8' && kind !== 'binary') return undefined;
  const offsets = data.valueOffsets as Int32Array | BigInt64Array;
  const bytes = (data.values as Uint8Array).subarray(Number(offsets[0]!), Number(offsets[1]!));
  return kind === 'binary' ? bytes : decoder.decode(bytes);
}

const decoder = new TextDecoder();

