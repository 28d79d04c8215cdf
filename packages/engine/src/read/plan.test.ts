// The plan marks filters with an exact geometry predicate (the scan keeps their narrowed ranges on the pool).
import { Field, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import { expect, it } from 'vitest';
import { plan } from './plan.js';

const meta = (klass: string) => new Map([['class', klass]]);
const schema = new Schema([
  new Field('id', new Int32(), false),
  new Field('geom', new Utf8(), true, meta('geometry')),
  new Field('lat', new Float64(), true, meta('latitude')),
  new Field('lon', new Float64(), true, meta('longitude')),
]);
const box = 'POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))';
const exact = (filter: string) => plan(schema, 't', filter, { vars: { box } }).filter?.exact;

it('marks a filter exact when it holds an exact geometry predicate, anywhere in it', () => {
  expect(exact('id > 1')).toBe(false);
  expect(exact('lat ~ $box')).toBe(false); // a box test: comparisons only
  expect(exact('geom ~ $box and id < 3')).toBe(false);
  expect(exact('lat within $box')).toBe(true);
  expect(exact('id == 1 or not (geom intersect $box)')).toBe(true);
});
