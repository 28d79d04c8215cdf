// Maps Arrow field types to physical kinds and logical value types; type-class predicates.
import { type DataType, DateUnit, Precision, TimeUnit, Type } from 'apache-arrow';
import type { PhysicalKind, TemporalType, TimeUnitName, TypedColumn, ValueType } from './typed.js';

export type NumericType = 'int' | 'int64' | 'float';

/** What a column of Arrow type `type` is in expressions, or a reason it cannot be used. */
export function columnOf(name: string, type: DataType): TypedColumn | string {
  const column = (physical: PhysicalKind, valueType: ValueType, unit: TimeUnitName | null = null): TypedColumn => ({ kind: 'column', name, physical, unit, type: valueType });
  switch (type.typeId) {
    case Type.Int: {
      const { bitWidth, isSigned } = type as unknown as { bitWidth: 8 | 16 | 32 | 64; isSigned: boolean };
      const physical = `${isSigned ? 'int' : 'uint'}${bitWidth}` as PhysicalKind;
      return column(physical, bitWidth === 64 ? 'int64' : 'int');
    }
    case Type.Float: {
      const { precision } = type as unknown as { precision: Precision };
      if (precision === Precision.HALF) return 'float16 columns are not supported in expressions';
      return column(precision === Precision.SINGLE ? 'float32' : 'float64', 'float');
    }
    case Type.Bool: return column('bool', 'bool');
    case Type.Utf8: return column('utf8', 'string');
    case Type.LargeUtf8: return column('largeutf8', 'string');
    case Type.Binary: return column('binary', 'binary');
    case Type.LargeBinary: return column('largebinary', 'binary');
    case Type.Date: {
      const day = (type as unknown as { unit: DateUnit }).unit === DateUnit.DAY;
      return day ? column('date32', 'date32') : column('date64', 'date64');
    }
    case Type.Timestamp: {
      const unit = TIME_UNITS[(type as unknown as { unit: TimeUnit }).unit];
      return column('timestamp', `timestamp[${unit}]`, unit);
    }
    default:
      return `columns of type ${String(type)} are not supported in expressions`;
  }
}

const TIME_UNITS: Readonly<Record<TimeUnit, TimeUnitName>> = {
  [TimeUnit.SECOND]: 's',
  [TimeUnit.MILLISECOND]: 'ms',
  [TimeUnit.MICROSECOND]: 'us',
  [TimeUnit.NANOSECOND]: 'ns',
};

export const isNumeric = (t: ValueType): t is NumericType => t === 'int' || t === 'int64' || t === 'float';

export const isTemporal = (t: ValueType): t is TemporalType => t.startsWith('timestamp') || t === 'date32' || t === 'date64';

/** The JS representation of a value of type `t` (see ValueType). */
export function representation(t: ValueType): 'number' | 'bigint' | 'boolean' | 'string' | 'bytes' | 'null' {
  if (t === 'int' || t === 'float' || t === 'date32') return 'number';
  if (t === 'int64' || t === 'datetime' || t === 'time' || isTemporal(t)) return 'bigint';
  if (t === 'bool') return 'boolean';
  if (t === 'binary') return 'bytes';
  return t === 'null' ? 'null' : 'string';
}

/** A type's name in messages: "integer", "float", "timestamp[ms]", ... */
export function describeType(t: ValueType): string {
  const names: Partial<Record<ValueType, string>> = { int: 'integer', int64: 'integer', bool: 'boolean', datetime: 'datetime', time: 'time of day' };
  return names[t] ?? t;
}
