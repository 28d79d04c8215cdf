// Casts between integer and float chunks: native copies for widenings, the row rules otherwise.
import { type Data, type DataType, Field, Precision } from 'apache-arrow';
import { columnKind, floatPrecision, intBits, isSigned } from '../../schema/types.js';
import { wordsOf } from '../int64.js';
import { fixedData } from '../layout.js';
import { readColumn } from '../read/column.js';
import { writeValues } from '../write/column.js';
import type { Cast } from './cast.js';

/**
 * int/float → int/float. A widening (int32 → int64, float32 → float64, int → float64, any int up
 * to 32 bits → float32, which rounds as float64 → float32 does) is one native copy; anything else
 * goes value by value through the row writers, so 1.5 → int or 300 → int8 fail at their row.
 */
export const castNumeric: Cast = (data, to) => {
  const from = columnKind(data.type);
  if (from !== 'int' && from !== 'bigint' && from !== 'float') return null;
  if (!widens(data.type, to)) return viaValues(data, to);
  const src = data.values as Int32Array;
  let out: ArrayBufferView;
  if (columnKind(to) === 'bigint') {
    // sign-extend 32-bit words into 64-bit slots
    const big = isSigned(to) ? new BigInt64Array(data.length) : new BigUint64Array(data.length);
    const words = wordsOf(big);
    for (let i = 0; i < data.length; i++) {
      const v = src[i]!;
      words[2 * i] = v;
      words[2 * i + 1] = v < 0 ? -1 : 0;
    }
    out = big;
  } else out = new (to.ArrayType as Float64ArrayConstructor)(src);
  return fixedData(to, data.length, out, data.nullBitmap, data.nullCount);
};

/** Converts through JS values and the row writer of `to` (nulls stay null). */
export function viaValues(data: Data, to: DataType): Data {
  return writeValues(new Field('', to, true), readColumn(data));
}

// True when every value of `from` converts to `to` without a check.
function widens(from: DataType, to: DataType): boolean {
  const fromKind = columnKind(from);
  const toKind = columnKind(to);
  if (fromKind === 'bigint') return false;
  if (toKind === 'float') {
    if (floatPrecision(to) === Precision.DOUBLE) return fromKind === 'int' || floatPrecision(from) === Precision.SINGLE;
    return fromKind === 'int';
  }
  if (fromKind !== 'int') return false;
  const [fs, ts] = [isSigned(from), isSigned(to)];
  if (toKind === 'bigint') return ts || !fs;
  // int → int: the target range contains the source range
  if (fs && !ts) return false;
  return intBits(to) > intBits(from) || (intBits(to) === intBits(from) && fs === ts);
}
