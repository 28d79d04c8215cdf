import { Field, Schema, Utf8, vectorFromArray } from 'apache-arrow';
import { expect, it } from 'vitest';
import { spatialSplitKeys } from './split.js';

it('gives bounding-box centres as split keys, NaN for nulls', () => {
  const schema = new Schema([new Field('geom', new Utf8(), true, new Map([['class', 'geometry']]))]);
  const data = vectorFromArray(['POINT(1 2)', null, 'LINESTRING(0 0, 10 4)'], new Utf8()).data[0]!;
  const { x, y } = spatialSplitKeys(schema, [data], 'geom');
  expect([...x]).toEqual([1, NaN, 5]);
  expect([...y]).toEqual([2, NaN, 2]);
});
