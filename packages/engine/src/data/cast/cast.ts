// Converts one chunk of an inserted batch to a column's type: shared when equal, cast when exact.
import { type Data, type DataType, DateUnit, Type } from 'apache-arrow';
import { type ColumnKind, columnKind, dateUnit, sameType } from '../../schema/types.js';
import { nullData, zeroOffset } from '../layout.js';
import { decodeDictionary } from './dictionary.js';
import { castNumeric } from './numeric.js';
import { castTemporal, wholeDays } from './temporal.js';
import { castVarWidth } from './varwidth.js';

/** Converts an offset-0 chunk of another type to `to`; null when the types do not convert. */
export type Cast = (data: Data, to: DataType) => Data | null;

/**
 * `data` as an offset-0 chunk of `to`: the same buffers when the types are equal, a value-checked
 * conversion when they are castable (null-type chunks become nulls, dictionaries are decoded
 * first), null when they are not. Throws RowError for a value that does not convert exactly.
 */
export function castData(data: Data, to: DataType): Data | null {
  if (data.typeId === Type.Dictionary) {
    const plain = decodeDictionary(data);
    return plain && castData(plain, to);
  }
  if (data.typeId === Type.Null) return nullData(to, data.length);
  if (sameType(data.type, to)) return isDate64(to) ? wholeDays(zeroOffset(data, to)) : zeroOffset(data, to);
  const kind = columnKind(to);
  if (columnKind(data.type) === null || kind === null) return null;
  return casts[kind](zeroOffset(data), to);
}

const casts: Record<ColumnKind, Cast> = {
  int: castNumeric,
  bigint: castNumeric,
  float: castNumeric,
  bool: () => null,
  utf8: castVarWidth,
  binary: castVarWidth,
  timestamp: castTemporal,
  date: castTemporal,
};

function isDate64(type: DataType): boolean {
  return type.typeId === Type.Date && dateUnit(type) === DateUnit.MILLISECOND;
}
