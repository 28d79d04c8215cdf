import { Field, Float64, RecordBatch, Schema, Struct, Utf8, makeData, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { isPrivateCopy, sliceColumns } from './partition.js';

const schema = new Schema([new Field('x', new Float64(), false), new Field('s', new Utf8(), false)]);
const batch = (xs: number[]) => {
  const children = [vectorFromArray(xs, new Float64()).data[0]!, vectorFromArray(xs.map(String), new Utf8()).data[0]!];
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: xs.length, nullCount: 0, children }));
};

describe('sliceColumns', () => {
  it('joins several chunks into private shared copies, and leaves a lone chunk as it is', () => {
    const [a, b] = [batch([1, 2, 3]), batch([4, 5])];
    const joined = sliceColumns(schema, [a, b], 1, 5, true);
    expect(joined.map((d) => [...vectorFromData(d)])).toEqual([[2, 3, 4, 5], ['2', '3', '4', '5']]);
    for (const d of joined) {
      expect(isPrivateCopy(d)).toBe(true);
      expect(d.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    }
    const lone = sliceColumns(schema, [a], 0, 3, true);
    expect(lone[0]!.values.buffer).toBe(a.data.children[0]!.values.buffer); // not copied
    expect(lone.some(isPrivateCopy)).toBe(false);
    // without `shared`: plain buffers, never marked
    expect(sliceColumns(schema, [a, b], 0, 5).some(isPrivateCopy)).toBe(false);
  });
});

const vectorFromData = (d: RecordBatch['data']['children'][number]) => new RecordBatch({ v: d as never }).getChildAt(0)!;
