// Plans: exact geometry predicates are marked (the scan keeps their narrowed ranges on the pool); plans are reused per schema.
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
const exact = (filter: string) => plan(schema, 't', filter, filter.includes('$box') ? { vars: { box } } : {}).filter?.exact;

it('marks a filter exact when it holds an exact geometry predicate, anywhere in it', () => {
  expect(exact('id > 1')).toBe(false);
  expect(exact('lat ~ $box')).toBe(false); // a box test: comparisons only
  expect(exact('geom ~ $box and id < 3')).toBe(false);
  expect(exact('lat within $box')).toBe(true);
  expect(exact('id == 1 or not (geom intersect $box)')).toBe(true);
});

it('reuses the plan of the same filter, columns and vars on the same schema, and only that', () => {
  const p = plan(schema, 't', 'id > $a', { vars: { a: 1 } });
  expect(plan(schema, 't', 'id > $a', { vars: { a: 1 } })).toBe(p);
  expect(plan(schema, 't', 'id > $a', { vars: { a: 2 } })).not.toBe(p);
  expect(plan(schema, 't', 'id > $a', { vars: { a: 1n } })).not.toBe(p);
  expect(plan(schema, 't', 'id > $a', { vars: { a: 1 }, cols: ['id'] })).not.toBe(p);
  expect(plan(new Schema(schema.fields), 't', 'id > $a', { vars: { a: 1 } })).not.toBe(p);
  expect(plan(schema, 't', 'id > ?', { vars: [1] })).toBe(plan(schema, 't', 'id > ?', { vars: [1] }));
  expect(plan(schema, 't', 'id > ?', { vars: [1] }).filter?.key).toBe(plan(schema, 't', 'id > $a', { vars: { a: 1 } }).filter?.key);
  // a value that is not plain is planned afresh each time
  const at = { valueOf: () => 1 };
  expect(plan(schema, 't', 'lat within $box', { vars: { box } })).toBe(plan(schema, 't', 'lat within $box', { vars: { box } }));
  expect(() => plan(schema, 't', 'id > $a', { vars: { a: at } })).toThrow();
  // errors are not remembered: the same bad request fails the same way every time
  for (let i = 0; i < 2; i++) expect(() => plan(schema, 't', 'nope > 1')).toThrow(/nope/);
  // the cache is bounded: a plan pushed out by 64 others is built again
  for (let i = 0; i < 64; i++) plan(schema, 't', `id > ${i + 100}`);
  expect(plan(schema, 't', 'id > $a', { vars: { a: 1 } })).not.toBe(p);
});
