// The column types a table supports, their families ("kinds") and their names in messages.
import { type DataType, DateUnit, Precision, TimeUnit, Type } from 'apache-arrow';

/**
 * The family of a supported column type; code that handles every type dispatches on it through a
 * `Record<ColumnKind, ...>`, so a new kind does not compile until every handler exists.
 * - `int`: 8/16/32-bit signed and unsigned integers (JS number);
 * - `bigint`: 64-bit signed and unsigned integers (JS bigint);
 * - `float`: float32, float64; `bool`; `utf8`: utf8, largeutf8; `binary`: binary, largebinary;
 * - `timestamp`: any unit, with or without timezone; `date`: date32 (days), date64 (milliseconds).
 */
export type ColumnKind = 'int' | 'bigint' | 'float' | 'bool' | 'utf8' | 'binary' | 'timestamp' | 'date';

/** The kind of a supported type, or null when tables cannot hold the type. */
export function columnKind(type: DataType): ColumnKind | null {
  switch (type.typeId) {
    case Type.Int:
      return intBits(type) === 64 ? 'bigint' : 'int';
    case Type.Float:
      return floatPrecision(type) === Precision.HALF ? null : 'float';
    case Type.Bool:
      return 'bool';
    case Type.Utf8:
    case Type.LargeUtf8:
      return 'utf8';
    case Type.Binary:
    case Type.LargeBinary:
      return 'binary';
    case Type.Timestamp:
      return 'timestamp';
    case Type.Date:
      return 'date';
    default:
      return null;
  }
}

/** The type as users write it: `int32`, `uint64`, `float64`, `largeutf8`, `date32`, `timestamp[us, tz=UTC]`. */
export function typeName(type: DataType): string {
  switch (type.typeId) {
    case Type.Int:
      return `${isSigned(type) ? 'int' : 'uint'}${intBits(type)}`;
    case Type.Float:
      return ['float16', 'float32', 'float64'][floatPrecision(type)] ?? String(type);
    case Type.Bool:
      return 'bool';
    case Type.Utf8:
      return 'utf8';
    case Type.LargeUtf8:
      return 'largeutf8';
    case Type.Binary:
      return 'binary';
    case Type.LargeBinary:
      return 'largebinary';
    case Type.Date:
      return dateUnit(type) === DateUnit.DAY ? 'date32' : 'date64';
    case Type.Timestamp: {
      const tz = (type as unknown as { timezone?: string | null }).timezone;
      return `timestamp[${unitName(timeUnit(type))}${tz ? `, tz=${tz}` : ''}]`;
    }
    default:
      return String(type);
  }
}

/** True when the two types are the same physical and logical type (timezone included). */
export function sameType(a: DataType, b: DataType): boolean {
  if (a.typeId !== b.typeId) return false;
  switch (a.typeId) {
    case Type.Int:
      return intBits(a) === intBits(b) && isSigned(a) === isSigned(b);
    case Type.Float:
      return floatPrecision(a) === floatPrecision(b);
    case Type.Date:
      return dateUnit(a) === dateUnit(b);
    case Type.Timestamp:
      return timeUnit(a) === timeUnit(b) && timezone(a) === timezone(b);
    default:
      return columnKind(a) !== null;
  }
}

/** Bit width of an Int type. */
export function intBits(type: DataType): number {
  return (type as unknown as { bitWidth: number }).bitWidth;
}

/** Signedness of an Int type. */
export function isSigned(type: DataType): boolean {
  return (type as unknown as { isSigned: boolean }).isSigned;
}

/** Precision of a Float type. */
export function floatPrecision(type: DataType): Precision {
  return (type as unknown as { precision: Precision }).precision;
}

/** Unit of a Date type. */
export function dateUnit(type: DataType): DateUnit {
  return (type as unknown as { unit: DateUnit }).unit;
}

/** Unit of a Timestamp type. */
export function timeUnit(type: DataType): TimeUnit {
  return (type as unknown as { unit: TimeUnit }).unit;
}

/** Timezone of a Timestamp type; null without one. */
export function timezone(type: DataType): string | null {
  return (type as unknown as { timezone?: string | null }).timezone ?? null;
}

/** True for the types with 64-bit offsets (largeutf8, largebinary). */
export function isLarge(type: DataType): boolean {
  return type.typeId === Type.LargeUtf8 || type.typeId === Type.LargeBinary;
}

function unitName(unit: TimeUnit): string {
  return ['s', 'ms', 'us', 'ns'][unit] ?? String(unit);
}
