// CSV field text to typed values, one column of a chunk at a time: float64, int64 and timestamps
// straight into their arrays, the other types through the engine's column writers (ranges and exactness checked
// as insert checks them).
import { type Data, type DataType, Field, type Int, Precision, Type } from 'apache-arrow';
import { RowError, describeValue } from '../../data/fail.js';
import { putInt64, wordsOf } from '../../data/int64.js';
import { fixedData } from '../../data/layout.js';
import { writeValues } from '../../data/write/column.js';
import { Validity } from '../../data/write/writer.js';
import { parseIso } from '../../data/iso8601.js';
import { putTime } from '../../data/write/instant.js';
import { type ColumnKind, columnKind, floatPrecision, timeUnit, typeName } from '../../schema/types.js';
import { BOOL_TEXT, floatOf, integerOf } from './text.js';

/**
 * The field texts of one column as a chunk of `type`; an empty field is null. Throws RowError (row
 * within the chunk) for text that is not a value of the type.
 */
export function textColumn(texts: readonly string[], name: string, type: DataType): Data {
  const kind = columnKind(type);
  if (kind === null) throw new RowError(0, `cannot parse text into ${typeName(type)}`);
  if (type.typeId === Type.Float && floatPrecision(type) === Precision.DOUBLE) return float64Column(texts, type);
  if (type.typeId === Type.Int && (type as Int).bitWidth === 64 && (type as Int).isSigned) return int64Column(texts, type);
  if (type.typeId === Type.Timestamp) return timestampColumn(texts, type);
  const parse = parsers[kind];
  const values = new Array<unknown>(texts.length);
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    values[i] = text === '' ? null : parse(text, i, type);
  }
  return writeValues(new Field(name, type, true), values);
}

// float64 straight into its array: no boxed number per value
function float64Column(texts: readonly string[], type: DataType): Data {
  const n = texts.length;
  const out = new Float64Array(n);
  const validity = new Validity(n, true);
  for (let i = 0; i < n; i++) {
    const text = texts[i]!;
    if (text === '') {
      validity.setNull(i, null);
      continue;
    }
    const v = floatOf(text);
    if (v === undefined) throw bad(i, type, text);
    out[i] = v;
  }
  const { bitmap, nullCount } = validity.finish();
  return fixedData(type, n, out, bitmap, nullCount);
}

// int64 as two 32-bit words per value while the text has under 16 digits (exact as a double)
function int64Column(texts: readonly string[], type: DataType): Data {
  const n = texts.length;
  const out = new BigInt64Array(n);
  const words = wordsOf(out);
  const validity = new Validity(n, true);
  for (let i = 0; i < n; i++) {
    const text = texts[i]!;
    if (text === '') {
      validity.setNull(i, null);
      continue;
    }
    const v = integerOf(text);
    if (v === undefined) throw bad(i, type, text);
    putInteger(out, words, i, v, text, type);
  }
  const { bitmap, nullCount } = validity.finish();
  return fixedData(type, n, out, bitmap, nullCount);
}

// ISO-8601 text straight into int64 words in the column's unit (messages as the insert path's)
function timestampColumn(texts: readonly string[], type: DataType): Data {
  const n = texts.length;
  const out = new BigInt64Array(n);
  const words = wordsOf(out);
  const validity = new Validity(n, true);
  const unit = timeUnit(type);
  const instant = new Float64Array(2);
  for (let i = 0; i < n; i++) {
    const text = texts[i]!;
    if (text === '') {
      validity.setNull(i, null);
      continue;
    }
    const invalid = parseIso(text, instant);
    if (invalid !== null) throw new RowError(i, `${describeValue(text)} ${invalid}`, text);
    const wrong = putTime(words, out, i, unit, instant[0]!, instant[1]!);
    if (wrong !== null) throw new RowError(i, `${describeValue(text)} ${wrong} for ${typeName(type)}`, text);
  }
  const { bitmap, nullCount } = validity.finish();
  return fixedData(type, n, out, bitmap, nullCount);
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

type Parse = (text: string, row: number, type: DataType) => unknown;

const integer: Parse = (text, row, type) => {
  const v = integerOf(text);
  if (v === undefined) throw bad(row, type, text);
  return v;
};

const parsers: Record<ColumnKind, Parse> = {
  int: (text, row, type) => Number(integer(text, row, type)),
  bigint: integer,
  float: (text, row, type) => {
    const v = floatOf(text);
    if (v === undefined) throw bad(row, type, text);
    return v;
  },
  bool: (text, row, type) => {
    if (!BOOL_TEXT.test(text)) throw bad(row, type, text);
    return text.length === 4;
  },
  utf8: (text) => text,
  binary: (text, row, type) => {
    // binary from text is hex (as WKB geometries are usually written), optionally prefixed 0x
    const hex = text.startsWith('0x') || text.startsWith('\\x') ? text.slice(2) : text;
    if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw bad(row, type, text, 'hex');
    return Uint8Array.from(Buffer.from(hex, 'hex'));
  },
  timestamp: (text) => text,
  date: (text) => text,
};

/** The error for field text that is not a value of `type` (row within the chunk). */
export function bad(row: number, type: DataType, text: string, form?: string): RowError {
  return new RowError(row, `expected ${typeName(type)}${form ? ` as ${form}` : ''}, got ${describeValue(text)}`, text);
}

/** Row `i` of an int64 column: `v` as `integerOf(text)` gave it, out of range an error naming `text`. */
export function putInteger(out: BigInt64Array, words: ReturnType<typeof wordsOf>, i: number, v: number | bigint, text: string, type: DataType): void {
  if (typeof v === 'number') putInt64(words, i, v);
  else if (v >= INT64_MIN && v <= INT64_MAX) out[i] = v;
  else throw new RowError(i, `${text} is out of range for ${typeName(type)}`, text);
}
