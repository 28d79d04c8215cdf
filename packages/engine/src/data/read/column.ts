// Picks the reader of a chunk from its kind: the one place that maps every kind to its JS form.
import type { Data } from 'apache-arrow';
import { type ColumnKind, columnKind, typeName } from '../../schema/types.js';
import { zeroOffset } from '../layout.js';
import { readBools, readNumbers } from './numbers.js';
import type { ColumnReader } from './reader.js';
import { readStrings } from './strings.js';
import { readDates, readTimestamps } from './temporal.js';

/** The values of a chunk (any offset) as their JS forms, nulls as null; a null-type chunk reads as nulls. */
export function readColumn(data: Data): unknown[] {
  const out = new Array<unknown>(data.length);
  const kind = columnKind(data.type);
  if (kind === null) {
    if (data.nullCount !== data.length) throw new Error(`readColumn: unsupported type ${typeName(data.type)}`);
    return out.fill(null);
  }
  readers[kind](zeroOffset(data), out);
  return out;
}

const readers: Record<ColumnKind, ColumnReader> = {
  int: readNumbers,
  bigint: readNumbers,
  float: readNumbers,
  bool: readBools,
  utf8: readStrings,
  binary: readStrings,
  timestamp: readTimestamps,
  date: readDates,
};
