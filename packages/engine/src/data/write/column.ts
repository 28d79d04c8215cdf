// Picks the writer of a column from its kind: the one place that maps every kind to its converter.
import { Binary, Bool, type Data, DateDay, Field, Float64, Int32, Int64, TimestampMillisecond, Utf8 } from 'apache-arrow';
import { keepShape } from '../../shapes.js';
import { type ColumnKind, columnKind, typeName } from '../../schema/types.js';
import { writeBigInts } from './bigints.js';
import { writeBools } from './bool.js';
import { writeFloats } from './floats.js';
import { writeInts } from './ints.js';
import { writeStrings } from './strings.js';
import { writeDates, writeTimestamps } from './temporal.js';
import { type Alloc, type ColumnBuilder, type ColumnWriter, heapAlloc } from './writer.js';

/** The builder of a column of `length` rows of `field.type`, its buffers from `alloc`. */
export function columnBuilder(field: Field, length: number, alloc: Alloc = heapAlloc): ColumnBuilder {
  const kind = columnKind(field.type);
  if (kind === null) throw new Error(`columnBuilder: unsupported type ${typeName(field.type)}`);
  return writers[kind](field, length, alloc);
}

/** Converts a whole array of JS values into one chunk; throws RowError at the first bad value. */
export function writeValues(field: Field, values: readonly unknown[]): Data {
  const builder = columnBuilder(field, values.length);
  builder.write(values, 0, values.length);
  return builder.finish();
}

const writers: Record<ColumnKind, ColumnWriter> = {
  int: writeInts,
  bigint: writeBigInts,
  float: writeFloats,
  bool: writeBools,
  utf8: writeStrings,
  binary: writeStrings,
  timestamp: writeTimestamps,
  date: writeDates,
};

// each builder class's hidden class outlives full GCs (see keepShape): a builder per column is made
// at every conversion (a staged block of per-row inserts every 2048 rows)
for (const type of [new Int32(), new Int64(), new Float64(), new Bool(), new Utf8(), new Binary(), new TimestampMillisecond(), new DateDay()]) {
  keepShape(columnBuilder(new Field('x', type, true), 0));
}
