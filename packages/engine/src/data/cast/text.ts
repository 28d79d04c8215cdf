// Alter's casts between text and the other kinds: strings parsed as numbers, booleans or ISO-8601 instants; values formatted back.
import { type Data, type DataType, Field, Type } from 'apache-arrow';
import { columnKind, timeUnit, typeName } from '../../schema/types.js';
import { RowError, describeValue } from '../fail.js';
import { isValid, zeroOffset } from '../layout.js';
import { readColumn } from '../read/column.js';
import { writeValues } from '../write/column.js';

/**
 * utf8/largeutf8 → int, float, bool, timestamp or date, and back; null for any other pair (the
 * insert path's casts handle those). Parsing takes integers (`-12`, for integer types only),
 * decimal or exponent numbers, `NaN` and `inf`/`Infinity` (floats), `true`/`false` in any case,
 * and what a timestamp or date column takes on insert (ISO-8601), surrounding blanks ignored;
 * formatting gives strings that parse back to the same value (instants as ISO-8601 in UTC with
 * every digit of the unit). Throws RowError at the first value that does not convert.
 */
export function castText(data: Data, to: DataType): Data | null {
  const from = columnKind(data.type);
  const kind = columnKind(to);
  if (isText(data.type) && kind !== null && kind !== 'utf8' && kind !== 'binary') {
    return writeValues(new Field('', to, true), readColumn(data).map((v, i) => (v === null ? null : parse(v as string, i, to))));
  }
  if (isText(to) && from !== null && from !== 'utf8' && from !== 'binary') return writeValues(new Field('', to, true), format(data));
  return null;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INFINITE = /^([+-]?)inf(inity)?$/i;

function parse(s: string, row: number, to: DataType): unknown {
  const t = s.trim();
  switch (columnKind(to)) {
    case 'int':
    case 'bigint':
      if (INTEGER.test(t)) return BigInt(t);
      throw new RowError(row, `${describeValue(s)} is not an integer (${typeName(to)})`, s);
    case 'float': {
      if (DECIMAL.test(t)) return Number(t);
      const inf = INFINITE.exec(t);
      if (inf) return inf[1] === '-' ? -Infinity : Infinity;
      if (/^nan$/i.test(t)) return Number.NaN;
      throw new RowError(row, `${describeValue(s)} is not a number (${typeName(to)})`, s);
    }
    case 'bool':
      if (/^(true|false)$/i.test(t)) return t.toLowerCase() === 'true';
      throw new RowError(row, `${describeValue(s)} is not a boolean (true or false)`, s);
    default:
      return t; // timestamp and date writers parse ISO-8601
  }
}

// the values as strings (nulls stay null)
function format(data: Data): (string | null)[] {
  if (data.typeId === Type.Timestamp) return formatInstants(data);
  const values = readColumn(data);
  if (data.typeId !== Type.Date) return values.map((v) => (v === null ? null : String(v)));
  return values.map((v, i) => {
    if (v === null) return null;
    const ms = (v as Date).getTime();
    if (Number.isNaN(ms)) throw new RowError(i, `a value of ${typeName(data.type)} is out of the range of ISO-8601 dates`);
    const iso = (v as Date).toISOString();
    return ms % 86_400_000 === 0 ? iso.slice(0, iso.indexOf('T')) : iso;
  });
}

const PER_SECOND = [1n, 1000n, 1_000_000n, 1_000_000_000n];
const DIGITS = [0, 3, 6, 9];
// a Date's range: ±8.64e15 ms
const MAX_SECONDS = 8_640_000_000_000n;

function formatInstants(chunk: Data): (string | null)[] {
  const data = zeroOffset(chunk);
  const unit = timeUnit(data.type);
  const per = PER_SECOND[unit]!;
  const values = data.values as BigInt64Array;
  const nulls = data.nullCount > 0 ? (data.nullBitmap ?? null) : null;
  const out = new Array<string | null>(data.length);
  for (let i = 0; i < data.length; i++) {
    if (nulls !== null && !isValid(nulls, i)) {
      out[i] = null;
      continue;
    }
    const v = values[i]!;
    let seconds = v / per;
    if (seconds * per > v) seconds -= 1n; // floor for instants before 1970
    if (seconds > MAX_SECONDS || seconds < -MAX_SECONDS) throw new RowError(i, `value ${v} of ${typeName(data.type)} is out of the range of ISO-8601 date-times`, v);
    const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, -5); // without ".000Z"
    const fraction = unit === 0 ? '' : `.${String(v - seconds * per).padStart(DIGITS[unit]!, '0')}`;
    out[i] = `${whole}${fraction}Z`;
  }
  return out;
}

function isText(type: DataType): boolean {
  return type.typeId === Type.Utf8 || type.typeId === Type.LargeUtf8;
}
