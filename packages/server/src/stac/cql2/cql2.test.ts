// CQL2 text and JSON: parsing, errors with positions, trailing garbage, evaluation, and round trips (fast-check).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { boxPolygon, collection, dataset, footprint, timeCoverage, uuid } from '../../test-util/catalog.js';
import { StacError } from '../errors.js';
import { CatalogIndex } from '../index/catalog-index.js';
import { kindsOf } from '../kinds.js';
import { MemorySource } from '../memory-source.js';
import { SPATIAL_OPS, TEMPORAL_OPS, type Expr, type Operand } from './ast.js';
import { compileFilter } from './compile.js';
import { parseCql2Json } from './json.js';
import { toCql2Json, toCql2Text } from './print.js';
import { parseCql2Text } from './text.js';

let index: CatalogIndex;
beforeAll(() => {
  index = new CatalogIndex(new MemorySource([
    collection(0),
    dataset(0, { collection: 'collection-0', title: 'Argo 2020' }), footprint(0, 'dataset-0', boxPolygon(0, 0, 10, 10)), timeCoverage(0, 'dataset-0', '2020-01-01T00:00:00Z', '2020-12-31T00:00:00Z'),
    dataset(1, { title: "Glider O'Brien" }), footprint(1, 'dataset-1', { type: 'Point', coordinates: [20, 20] }), timeCoverage(1, 'dataset-1', '2021-06-01T00:00:00Z', '2021-06-01T00:00:00Z'),
    dataset(2, { title: 'Mooring' }),
  ]), kindsOf('example.io'));
});

const matches = (e: Expr) => index.ordered.filter((d) => compileFilter(e, index)(d) === true).map((d) => d.resource.metadata.display_name).sort();
const text = (s: string) => matches(parseCql2Text(s));

describe('CQL2 text', () => {
  it('evaluates basic comparisons, boolean logic, null tests and advanced comparisons', () => {
    expect(text("storage_class = 'tabular'")).toEqual(['Argo 2020', 'Mooring']);
    expect(text("storage_class <> 'tabular' OR title = 'Mooring'")).toEqual(["Glider O'Brien", 'Mooring']);
    expect(text("NOT (storage_class = 'tabular') AND \"properties.facets.region\" = 'north'")).toEqual([]);
    expect(text("title = 'Glider O''Brien'")).toEqual(["Glider O'Brien"]);
    expect(text('start_datetime IS NULL')).toEqual(['Mooring']);
    expect(text('start_datetime IS NOT NULL')).toEqual(['Argo 2020', "Glider O'Brien"]);
    expect(text("title LIKE 'A%'")).toEqual(['Argo 2020']);
    expect(text("title NOT LIKE '%o%'")).toEqual(["Glider O'Brien"]);
    expect(text("title like 'Moor_ng'")).toEqual(['Mooring']);
    expect(text("name IN ('dataset-0', 'dataset-2')")).toEqual(['Argo 2020', 'Mooring']);
    expect(text("name NOT IN ('dataset-0')")).toEqual(["Glider O'Brien", 'Mooring']);
    expect(text("created BETWEEN TIMESTAMP('2024-02-01T00:00:00Z') AND TIMESTAMP('2024-02-01T00:00:01Z')")).toEqual(['Argo 2020', "Glider O'Brien"]);
    expect(text(`collection = '${uuid(0, 2)}'`)).toEqual(['Argo 2020']);
    expect(text("datetime >= '2021-01-01T00:00:00Z'")).toEqual(["Glider O'Brien", 'Mooring']);
    expect(text('TRUE')).toHaveLength(3);
    expect(text('false OR FALSE')).toEqual([]);
  });

  it('evaluates spatial functions with WKT and BBOX literals', () => {
    expect(text('S_INTERSECTS(geometry, POINT(5 5))')).toEqual(['Argo 2020']);
    expect(text('s_intersects(geometry, BBOX(-180, -90, 180, 90))')).toEqual(['Argo 2020', "Glider O'Brien"]);
    expect(text('S_WITHIN(geometry, POLYGON((15 15, 25 15, 25 25, 15 25, 15 15)))')).toEqual(["Glider O'Brien"]);
    expect(text('S_CONTAINS(geometry, POINT(1 1))')).toEqual(['Argo 2020']);
    expect(text('S_DISJOINT(geometry, POINT(5 5))')).toEqual(["Glider O'Brien"]);
    expect(text('S_TOUCHES(geometry, LINESTRING(10 0, 20 0))')).toEqual(['Argo 2020']);
    expect(text('S_CROSSES(geometry, LINESTRING(-5 5, 15 5))')).toEqual(['Argo 2020']);
    expect(text('S_OVERLAPS(geometry, POLYGON((5 5, 15 5, 15 15, 5 15, 5 5)))')).toEqual(['Argo 2020']);
    expect(text('S_EQUALS(geometry, POLYGON((0 0, 10 0, 10 10, 0 10, 0 0)))')).toEqual(['Argo 2020']);
    expect(text('S_INTERSECTS(geometry, MULTIPOINT((5 5), (20 20)))')).toEqual(['Argo 2020', "Glider O'Brien"]);
    expect(text('S_INTERSECTS(geometry, GEOMETRYCOLLECTION(POINT(5 5), POINT(50 50)))')).toEqual(['Argo 2020']);
  });

  it('evaluates temporal functions with timestamps, dates and open intervals', () => {
    expect(text("T_INTERSECTS(datetime, INTERVAL('2020-06-01', '2021-06-01'))")).toEqual(['Argo 2020', "Glider O'Brien"]);
    expect(text("T_DURING(datetime, INTERVAL('2019-01-01T00:00:00Z', '..'))")).toEqual(['Argo 2020', "Glider O'Brien", 'Mooring']);
    expect(text("T_AFTER(datetime, TIMESTAMP('2021-01-01T00:00:00Z'))")).toEqual(["Glider O'Brien", 'Mooring']);
    expect(text("T_BEFORE(datetime, DATE('2021-01-01'))")).toEqual(['Argo 2020']);
    expect(text("T_EQUALS(datetime, TIMESTAMP('2021-06-01T00:00:00Z'))")).toEqual(["Glider O'Brien"]);
    expect(text("T_CONTAINS(datetime, DATE('2020-05-05'))")).toEqual(['Argo 2020']);
    expect(text("T_STARTS(datetime, INTERVAL('2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z'))")).toEqual(['Argo 2020']);
    expect(text("T_DISJOINT(datetime, INTERVAL('..', '2020-12-31T00:00:00Z'))")).toEqual(["Glider O'Brien", 'Mooring']);
  });

  it.each([
    ["title = 'a' )", /unexpected '\)' after a complete expression at position 12/],
    ["title = 'a' title", /unexpected 'title' after a complete expression/],
    ["title = 'a' AND", /expected a property, a literal or a geometry, got the end of the filter/],
    ["title = 'a' 'b'", /unexpected 'b'/],
    ['(title IS NULL', /expected '\)'/],
    ["title = 'unterminated", /unterminated string at position 8/],
    ['title ? 3', /unexpected character '\?' at position 6/],
    ['title', /expected a comparison/],
    ['S_INTERSECTS(geometry, POINT(1))', /invalid WKT/],
    ["T_AFTER(datetime, TIMESTAMP('2020-01-01'))", /not an RFC 3339 date-time/],
    ['S_INTERSECTS(geometry, BBOX(1, 2, 3))', /BBOX takes 4 or 6 numbers/],
    ["nope = 'x'", /unknown property 'nope'/],
    ['title > 3', /cannot compare a string with a number/],
    ["S_INTERSECTS(title, POINT(0 0))", /spatial functions take geometries, got a string/],
    ["T_AFTER(title, DATE('2020-01-01'))", /temporal functions take timestamps/],
    ["datetime > 'not a time'", /not an RFC 3339 date-time/],
  ])('rejects %j with a 400 that says where', (filter, message) => {
    expect(() => matches(parseCql2Text(filter))).toThrow(StacError);
    expect(() => matches(parseCql2Text(filter))).toThrow(message);
  });
});

it('limits nesting depth instead of overflowing the stack', () => {
  expect(() => parseCql2Text(`${'('.repeat(5000)}TRUE${')'.repeat(5000)}`)).toThrow(/nesting deeper than 64/);
  expect(() => parseCql2Text(`${'NOT '.repeat(5000)}TRUE`)).toThrow(/nesting deeper than 64/);
  let deep: unknown = true;
  for (let i = 0; i < 5000; i++) deep = { op: 'not', args: [deep] };
  expect(() => parseCql2Json(deep)).toThrow(/nesting deeper than 64/);
  expect(parseCql2Text(`${'('.repeat(60)}TRUE${')'.repeat(60)}`)).toEqual({ kind: 'literal', value: true });
});

describe('CQL2 JSON', () => {
  it('evaluates the same operators', () => {
    expect(matches(parseCql2Json({ op: 'and', args: [{ op: '=', args: [{ property: 'storage_class' }, 'tabular'] }, { op: 's_intersects', args: [{ property: 'geometry' }, { type: 'Point', coordinates: [5, 5] }] }] }))).toEqual(['Argo 2020']);
    expect(matches(parseCql2Json({ op: 't_intersects', args: [{ property: 'datetime' }, { interval: ['2021-01-01T00:00:00Z', '..'] }] }))).toEqual(["Glider O'Brien", 'Mooring']);
    expect(matches(parseCql2Json({ op: 'isNull', args: [{ property: 'geometry' }] }))).toEqual(['Mooring']);
    expect(matches(parseCql2Json({ op: 'in', args: [{ property: 'name' }, ['dataset-1']] }))).toEqual(["Glider O'Brien"]);
    expect(matches(parseCql2Json({ op: 's_intersects', args: [{ property: 'geometry' }, { bbox: [15, 15, 25, 25] }] }))).toEqual(["Glider O'Brien"]);
  });
  it.each([
    [{ op: 'nope', args: [] }, /filter.op: unknown operator "nope"/],
    [{ op: '=', args: [1] }, /= takes 2 arguments, got 1/],
    [{ op: 'and', args: [true] }, /and needs at least 2 args/],
    [{ op: '=', args: [{ property: 'title' }, { foo: 1 }] }, /filter.args\[1\]: expected \{property\}/],
    [{ op: 's_intersects', args: [{ property: 'geometry' }, { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] }] }, /needs at least 4 positions/],
    ['title = 1', /expected a boolean or an \{"op", "args"\} object/],
  ])('rejects %j', (filter, message) => {
    expect(() => parseCql2Json(filter)).toThrow(message);
  });
});

// --- generated expressions ---------------------------------------------------------------------------
const coord = fc.integer({ min: -170, max: 170 });
const lat = fc.integer({ min: -80, max: 80 });
const num = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }).filter((x) => !Object.is(x, -0)));
const iso = fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
const geometry = fc.oneof(
  fc.tuple(coord, lat).map(([x, y]) => ({ type: 'Point', coordinates: [x, y] })),
  fc.tuple(coord, lat, coord, lat).map(([a, b, c, d]) => ({ type: 'LineString', coordinates: [[a, b], [c, d]] })),
  fc.tuple(coord, lat, fc.integer({ min: 1, max: 9 })).map(([x, y, s]) => boxPolygon(x, y, x + s, y + s)),
);
const operand: fc.Arbitrary<Operand> = fc.oneof(
  fc.string({ maxLength: 12 }).map((name) => ({ kind: 'property', name }) as const),
  fc.string({ maxLength: 12 }).map((value) => ({ kind: 'string', value }) as const),
  num.map((value) => ({ kind: 'number', value }) as const),
  fc.boolean().map((value) => ({ kind: 'boolean', value }) as const),
  iso.map((value) => ({ kind: 'timestamp', value }) as const),
  iso.map((value) => ({ kind: 'date', value: value.slice(0, 10) }) as const),
  fc.tuple(fc.oneof(iso, fc.constant('..')), fc.oneof(iso, fc.constant('..'))).map(([start, end]) => ({ kind: 'interval', start, end }) as const),
  geometry.map((value) => ({ kind: 'geometry', value }) as Operand),
  fc.tuple(coord, coord, coord, coord).map((b) => ({ kind: 'bbox', value: b }) as const),
);
const expr: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.boolean().map((value) => ({ kind: 'literal', value }) as const),
    fc.tuple(fc.constantFrom('=', '<>', '<', '<=', '>', '>=' as const), operand, operand).map(([op, left, right]) => ({ kind: 'compare', op, left, right }) as Expr),
    fc.tuple(operand, fc.string({ maxLength: 8 })).map(([arg, pattern]) => ({ kind: 'like', arg, pattern }) as const),
    fc.tuple(operand, operand, operand).map(([arg, low, high]) => ({ kind: 'between', arg, low, high }) as const),
    fc.tuple(operand, fc.array(operand, { minLength: 1, maxLength: 3 })).map(([arg, list]) => ({ kind: 'in', arg, list }) as const),
    operand.map((arg) => ({ kind: 'isNull', arg }) as const),
    fc.tuple(fc.constantFrom(...SPATIAL_OPS), operand, operand).map(([op, left, right]) => ({ kind: 'spatial', op, left, right }) as const),
    fc.tuple(fc.constantFrom(...TEMPORAL_OPS), operand, operand).map(([op, left, right]) => ({ kind: 'temporal', op, left, right }) as const),
    fc.tuple(fc.constantFrom('and', 'or' as const), fc.array(tie('e'), { minLength: 2, maxLength: 3 })).map(([kind, args]) => ({ kind, args }) as Expr),
    tie('e').map((arg) => ({ kind: 'not', arg }) as const),
  ),
})).e;

describe('CQL2 properties', () => {
  it('text round trip: parse(print(e)) = e', () => {
    fc.assert(fc.property(expr, (e) => { expect(parseCql2Text(toCql2Text(e))).toEqual(e); }), { numRuns: 300 });
  });
  it('JSON round trip: parse(print(e)) = e', () => {
    fc.assert(fc.property(expr, (e) => { expect(parseCql2Json(JSON.parse(JSON.stringify(toCql2Json(e))))).toEqual(e); }), { numRuns: 300 });
  });
  it('rejects any complete expression followed by more text', () => {
    const garbage = fc.constantFrom(' )', ' x', " 'a'", ' 1', ' AND', ' OR', ' ,', ' (', ' TRUE', ' POINT(1 2)');
    fc.assert(fc.property(expr, garbage, (e, g) => {
      expect(() => parseCql2Text(toCql2Text(e) + g)).toThrow(StacError);
    }), { numRuns: 200 });
  });
  it('never crashes on arbitrary text: a parse or a StacError', () => {
    const tokens = fc.constantFrom('title', '=', "'x'", '1', 'AND', 'OR', 'NOT', '(', ')', ',', 'IS', 'NULL', 'LIKE', 'IN', 'BETWEEN', 'S_INTERSECTS', 'T_AFTER', 'POINT(1 1)', 'BBOX', 'TIMESTAMP', 'INTERVAL', '"q"', '-', '..');
    fc.assert(fc.property(fc.oneof(fc.string(), fc.array(tokens, { maxLength: 12 }).map((t) => t.join(' '))), (s) => {
      try {
        const e = parseCql2Text(s);
        matches(e);
      } catch (err) {
        expect(err).toBeInstanceOf(StacError);
      }
    }), { numRuns: 500 });
  });
});
