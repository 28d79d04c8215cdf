// Structural checks of untrusted record batches: every well-formed type passes, broken buffers are named.
import { Binary, Bool, DateDay, Dictionary, Field, Float64, Int32, Int64, LargeUtf8, Null, RecordBatch, Schema, Struct, TimestampMillisecond, Utf8, makeData, tableFromArrays, tableFromIPC, tableToIPC, Table, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { FREE_ROWS, batchProblem } from './batch-check.js';

// a batch as the server sees it: written to IPC and read back
const roundTrip = (b: RecordBatch): RecordBatch => tableFromIPC(tableToIPC(new Table([b]), 'stream')).batches[0]!;

describe('batchProblem', () => {
  it('passes well-formed batches of every column type, with nulls and dictionaries', () => {
    const b = new RecordBatch({
      i: vectorFromArray([1, null, 3], new Int32()).data[0]!,
      l: vectorFromArray([1n, 2n, null], new Int64()).data[0]!,
      f: vectorFromArray([1.5, null, 2], new Float64()).data[0]!,
      b: vectorFromArray([true, null, false], new Bool()).data[0]!,
      s: vectorFromArray(['a', null, 'ccc'], new Utf8()).data[0]!,
      ls: vectorFromArray(['x', 'yy', null], new LargeUtf8()).data[0]!,
      bin: vectorFromArray([new Uint8Array([1]), null, new Uint8Array([2, 3])], new Binary()).data[0]!,
      d: vectorFromArray([new Date(0), null, new Date(86_400_000)], new DateDay()).data[0]!,
      t: vectorFromArray([new Date(0), new Date(1), null], new TimestampMillisecond()).data[0]!,
    });
    expect(batchProblem(roundTrip(b))).toBeUndefined();
    expect(batchProblem(roundTrip(new RecordBatch(b.schema, undefined)))).toBeUndefined();
    expect(batchProblem(roundTrip(tableFromArrays({ dict: ['p', 'q', null, 'p'] }).batches[0]!))).toBeUndefined();
  });

  it('names the column whose string offsets point past its data', () => {
    const s = makeData({ type: new Utf8(), length: 2, nullCount: 0, valueOffsets: Int32Array.from([0, 1, 5000]), data: new Uint8Array([97, 98, 99]) });
    expect(batchProblem(roundTrip(new RecordBatch({ s })))).toMatch(/column "s": value 1 ends at offset 5000, past the \d+ bytes of data/);
  });

  it('names decreasing offsets and dictionary indices out of range', () => {
    const s = makeData({ type: new Utf8(), length: 2, nullCount: 0, valueOffsets: Int32Array.from([0, 3, 1]), data: new Uint8Array([97, 98, 99]) });
    expect(batchProblem(new RecordBatch({ s }))).toMatch(/value 1 ends at offset 1, before it starts at 3/);
    const dictionary = vectorFromArray(['p', 'q'], new Utf8());
    const k = makeData({ type: new Dictionary(new Utf8(), new Int32()), length: 2, nullCount: 0, data: Int32Array.from([1, 7]), dictionary });
    expect(batchProblem(new RecordBatch({ k }))).toMatch(/column "k": row 1 refers to dictionary entry 7 of 2/);
  });

  it('refuses a batch declaring far more rows than its buffers carry (columns of type Null carry none)', () => {
    const nulls = (n: number) => new RecordBatch(new Schema([new Field('v', new Null(), true)]), makeData({ type: new Struct([new Field('v', new Null(), true)]), length: n, nullCount: 0, children: [makeData({ type: new Null(), length: n, nullCount: n })] }));
    expect(batchProblem(roundTrip(nulls(FREE_ROWS)))).toBeUndefined();
    expect(batchProblem(roundTrip(nulls(100_000_000)))).toBe('the batch declares 100000000 rows but carries 0 bytes of column buffers (columns of type Null carry none)');
    // a bool column carries a bit a row: many rows, all accounted for
    const many = 1_000_000;
    expect(batchProblem(roundTrip(new RecordBatch({ b: makeData({ type: new Bool(), length: many, nullCount: 0, data: new Uint8Array(many / 8) }) })))).toBeUndefined();
  });
});
