// CSV field text to typed values: one column of a chunk at a time, into the target column type
// through the engine's column writers (which check ranges and exactness like insert does).
import { type Data, type DataType, Field } from 'apache-arrow';
import { RowError, describeValue } from '../../data/fail.js';
import { writeValues } from '../../data/write/column.js';
import { type ColumnKind, columnKind, typeName } from '../../schema/types.js';
import { BOOL_TEXT, FLOAT_TEXT, INT_TEXT } from './infer.js';

/**
 * Column `col` of `rows` as a chunk of `type`; an empty field is null. Throws RowError (row within
 * the chunk) for text that is not a value of the type.
 */
export function textColumn(rows: readonly (readonly string[])[], col: number, name: string, type: DataType): Data {
  const kind = columnKind(type);
  if (kind === null) throw new RowError(0, `cannot parse text into ${typeName(type)}`);
  const parse = parsers[kind];
  const values = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const text = rows[i]![col]!;
    values[i] = text === '' ? null : parse(text, i, type);
  }
  return writeValues(new Field(name, type, true), values);
}

type Parse = (text: string, row: number, type: DataType) => unknown;

const number: Parse = (text, row, type) => {
  if (!FLOAT_TEXT.test(text)) throw bad(row, type, text);
  const lower = text.toLowerCase();
  if (lower.endsWith('inf') || lower.endsWith('infinity')) return text.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
};

const integer: Parse = (text, row, type) => {
  if (!INT_TEXT.test(text)) throw bad(row, type, text);
  return text.length < 16 ? Number(text) : BigInt(text);
};

const parsers: Record<ColumnKind, Parse> = {
  int: (text, row, type) => Number(integer(text, row, type)),
  bigint: integer,
  float: number,
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

function bad(row: number, type: DataType, text: string, form?: string): RowError {
  return new RowError(row, `expected ${typeName(type)}${form ? ` as ${form}` : ''}, got ${describeValue(text)}`, text);
}
