// Column type names of the v1 `table_schema` and the Arrow types they stand for.
import { Binary, Bool, type DataType, DateDay, DateMillisecond, DateUnit, Float32, Float64, Int8, Int16, Int32, Int64, LargeUtf8, TimeUnit, TimestampMicrosecond, TimestampMillisecond, TimestampNanosecond, TimestampSecond, Type, Uint8, Uint16, Uint32, Uint64, Utf8 } from 'apache-arrow';

/** Accepted names → type; `geometry` is a utf8 (WKT) column with field metadata `class: geometry`. */
const NAMES: Readonly<Record<string, () => DataType>> = {
  string: () => new Utf8(), str: () => new Utf8(), utf8: () => new Utf8(), text: () => new Utf8(), large_string: () => new LargeUtf8(), largeutf8: () => new LargeUtf8(),
  int8: () => new Int8(), int16: () => new Int16(), int32: () => new Int32(), int: () => new Int32(), integer: () => new Int64(), int64: () => new Int64(), long: () => new Int64(),
  uint8: () => new Uint8(), uint16: () => new Uint16(), uint32: () => new Uint32(), uint64: () => new Uint64(),
  float32: () => new Float32(), float: () => new Float32(), float64: () => new Float64(), double: () => new Float64(), number: () => new Float64(),
  bool: () => new Bool(), boolean: () => new Bool(),
  timestamp: () => new TimestampMillisecond('UTC'), datetime: () => new TimestampMillisecond('UTC'), 'timestamp[ms]': () => new TimestampMillisecond('UTC'),
  'timestamp[s]': () => new TimestampSecond('UTC'), 'timestamp[us]': () => new TimestampMicrosecond('UTC'), 'timestamp[ns]': () => new TimestampNanosecond('UTC'),
  date: () => new DateDay(), date32: () => new DateDay(), date64: () => new DateMillisecond(),
  binary: () => new Binary(), bytes: () => new Binary(),
  geometry: () => new Utf8(),
};

const TIMESTAMP_NAMES: Readonly<Record<TimeUnit, string>> = {
  [TimeUnit.SECOND]: 'timestamp[s]', [TimeUnit.MILLISECOND]: 'timestamp', [TimeUnit.MICROSECOND]: 'timestamp[us]', [TimeUnit.NANOSECOND]: 'timestamp[ns]',
};

/** The documented list of accepted type names. */
export const TYPE_NAMES: readonly string[] = Object.keys(NAMES);

/** The Arrow type of a v1 type name (case-insensitive), or undefined. */
export function arrowType(name: string): DataType | undefined {
  return NAMES[name.toLowerCase()]?.();
}

/** The canonical v1 name of an Arrow type (as GET /schema answers). */
export function v1TypeName(t: DataType, geometry: boolean): string {
  if (geometry) return 'geometry';
  switch (t.typeId) {
    case Type.Utf8: return 'string';
    case Type.LargeUtf8: return 'large_string';
    case Type.Bool: return 'bool';
    case Type.Binary: case Type.LargeBinary: return 'binary';
    case Type.Date: return (t as DateDay).unit === DateUnit.DAY ? 'date' : 'date64';
    // every unit by its own name (a table made through v2 may have any), milliseconds as plain `timestamp`
    case Type.Timestamp: return TIMESTAMP_NAMES[(t as TimestampMicrosecond).unit];
    default: return String(t).toLowerCase();
  }
}
