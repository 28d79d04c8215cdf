// Picks the reader of a chunk from its kind: the one place that maps every kind to its JS form.
import type { Data } from 'apache-arrow';
import { type ColumnKind, columnKind, typeName } from '../../schema/types.js';
import { zeroOffset } from '../layout.js';
import { readBools, readNumbers } from './numbers.js';
import { type ColumnReader, type ValueSink, put } from './reader.js';
import { readStrings } from './strings.js';
import { readDates, readTimestamps } from './temporal.js';

/** Reads every value of a chunk (any offset) as its JS form into the sink; null type reads as nulls. */
export function readColumn(data: Data, sink: ValueSink): void {
  const kind = columnKind(data.type);
  if (kind === null) {
    if (data.nullCount !== data.length) throw new Error(`readColumn: unsupported type ${typeName(data.type)}`);
    for (let i = 0; i < data.length; i++) put(sink.dst, sink.key, i, null);
    return;
  }
  readers[kind](zeroOffset(data), sink);
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
