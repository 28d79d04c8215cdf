import { Field, Utf8, vectorFromArray } from 'apache-arrow';
import { expect, it } from 'vitest';
import { geometrySplitKeys } from './split.js';

it('gives bounding-box centres as split keys, NaN for nulls', () => {
  const field = new Field('geom', new Utf8(), true, new Map([['class', 'geometry']]));
  const data = vectorFromArray(['POINT(1 2)', null, 'LINESTRING(0 0, 10 4)'], new Utf8()).data[0]!;
  const [x, y] = geometrySplitKeys(field)(data);
  expect([...x!]).toEqual([1, NaN, 5]);
  expect([...y!]).toEqual([2, NaN, 2]);
});
