// Type checking: column kinds, errors with context, folding, temporal conversion, keys, cloneability.
import { Bool, DateDay, DateMillisecond, Field, Float16, Float32, Float64, Int32, Int64, List, Schema, TimestampMicrosecond, TimestampMillisecond, Uint8, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { isHaloclineError } from '../errors.js';
import { bind, type Vars } from './bind.js';
import { prepareFilter } from './prepare.js';
import { parse } from './parser.js';
import { typecheck } from './typecheck.js';

const schema = new Schema([
  new Field('depth', new Float64(), true),
  new Field('temp', new Float32(), true),
  new Field('n', new Int32(), true),
  new Field('flags', new Uint8(), true),
  new Field('big', new Int64(), true),
  new Field('name', new Utf8(), true),
  new Field('ok', new Bool(), true),
  new Field('ts', new TimestampMillisecond(), true),
  new Field('tus', new TimestampMicrosecond(), true),
  new Field('day', new DateDay(), true),
  new Field('d64', new DateMillisecond(), true),
  new Field('half', new Float16(), true),
  new Field('tags', new List(new Field('item', new Utf8())), true),
]);

const check = (query: string, vars?: Vars) => typecheck(bind(parse(query), vars, query), schema, query);

function errorOf(query: string, vars?: Vars): { code: string; message: string; position?: number; token?: string; column?: string; query?: string } {
  try {
    check(query, vars);
  } catch (e) {
    if (!isHaloclineError(e)) throw e;
    return { code: e.code, message: e.message, position: e.position, token: e.token, column: e.column, query: e.query };
  }
  throw new Error(`no error for ${query}`);
}

describe('typecheck', () => {
  it('types columns from their Arrow types, with physical kinds', () => {
    expect(check('depth > 1 and temp < 2 and n = 3 and flags = 4 and big = 5')).toMatchObject({
      left: { left: { left: { left: { left: { physical: 'float64', type: 'float' } }, right: { left: { physical: 'float32' } } }, right: { left: { physical: 'int32', type: 'int' } } }, right: { left: { physical: 'uint8' } } },
      right: { left: { physical: 'int64', type: 'int64' } },
    });
    expect(check('ts > "2020-01-01"')).toMatchObject({ left: { physical: 'timestamp', unit: 'ms', type: 'timestamp[ms]' } });
    expect(check('day > "2020-01-01" and d64 > "2020-01-01"')).toMatchObject({ left: { left: { physical: 'date32', type: 'date32' } }, right: { left: { physical: 'date64', type: 'date64' } } });
  });

  it('reports unknown columns with position, token and column', () => {
    expect(errorOf('depth > 1 and dpth < 5')).toEqual({ code: 'QueryType', message: "unknown column 'dpth' at 14", position: 14, token: 'dpth', column: 'dpth', query: 'depth > 1 and dpth < 5' });
    expect(errorOf('Depth > 1')).toMatchObject({ message: "unknown column 'Depth' at 0; did you mean 'depth'?" });
  });

  it('rejects type mismatches, naming the column and the operator position', () => {
    expect(errorOf('name > 5')).toMatchObject({ code: 'QueryType', message: "cannot compare string column 'name' with a number at 5", position: 5, token: '>', column: 'name' });
    expect(errorOf('5 == ok')).toMatchObject({ message: "cannot compare a number with boolean column 'ok' at 2", column: 'ok' });
    expect(errorOf('ts > 5')).toMatchObject({ message: "cannot compare timestamp[ms] column 'ts' with a number at 3", column: 'ts' });
    expect(errorOf('ts > name')).toMatchObject({ column: 'ts' });
    expect(errorOf('ts > $t', { t: { type: 'time', value: '10:00' } })).toMatchObject({ code: 'QueryType', message: expect.stringContaining('time of day') });
    expect(errorOf('n in (1, "a")')).toMatchObject({ code: 'QueryType', position: 2, token: 'in' });
    expect(errorOf('name + 1 > 0')).toMatchObject({ message: "'+' needs numbers, got string column 'name' at 0", position: 0, column: 'name' });
    expect(errorOf('ts - 1 > 0')).toMatchObject({ code: 'QueryType', column: 'ts' });
    expect(errorOf('not depth')).toMatchObject({ message: "'not' needs a boolean operand, got float column 'depth' at 4" });
    expect(errorOf('ok and n')).toMatchObject({ message: "'and' needs a boolean operand, got integer column 'n' at 7" });
    expect(errorOf('-name > 1')).toMatchObject({ message: expect.stringContaining('unary minus needs numbers') });
  });

  it('requires a boolean filter', () => {
    expect(errorOf('depth + 1')).toMatchObject({ code: 'QueryType', message: 'the filter must be a boolean expression, got a float expression at 6', position: 6 });
    expect(errorOf('name')).toMatchObject({ message: "the filter must be a boolean expression, got string column 'name' at 0" });
    expect(errorOf("'abc'")).toMatchObject({ message: 'the filter must be a boolean expression, got a string at 0' });
    expect(check('ok')).toMatchObject({ kind: 'column', name: 'ok' });
  });

  it('rejects geospatial operators on non-geometry columns, and unknown functions', () => {
    expect(errorOf('name within "POLYGON ((0 0, 1 1, 1 0, 0 0))"')).toMatchObject({
      code: 'QueryType', message: expect.stringContaining("'within' needs a geometry column or a latitude/longitude column"), position: 0, token: 'name', column: 'name',
    });
    expect(errorOf('name ~ $g', { g: 'POINT (0 0)' })).toMatchObject({ code: 'QueryType', column: 'name', message: expect.stringContaining("'~' needs a geometry column") });
    expect(errorOf('geom intersect "POINT (0 0)"')).toMatchObject({ message: "unknown column 'geom' at 0" });
    expect(errorOf('abs(depth) > 1')).toMatchObject({ code: 'QueryType', message: "unknown function 'abs' at 0", token: 'abs' });
    expect(errorOf('half > 1')).toMatchObject({ message: "float16 columns are not supported in expressions (column 'half' at 0)" });
    expect(errorOf('tags is null')).toMatchObject({ column: 'tags', message: expect.stringContaining('not supported') });
  });

  it('folds constants, including the schema probe "fetch" == "schema"', () => {
    expect(check('"fetch" == "schema"')).toEqual({ kind: 'literal', type: 'bool', value: false });
    expect(check('1==1')).toEqual({ kind: 'literal', type: 'bool', value: true });
    expect(check('2 * 3 + 1 = 7 and not (1 > 2)')).toEqual({ kind: 'literal', type: 'bool', value: true });
    expect(check('null = 1')).toEqual({ kind: 'literal', type: 'null', value: null });
    expect(check('n % 0 > 1')).toEqual({ kind: 'literal', type: 'null', value: null });
    expect(check('null or true')).toMatchObject({ value: true });
    expect(check('true and depth > 1')).toMatchObject({ kind: 'compare', op: '>' });
    expect(check('depth > 1 or true')).toMatchObject({ kind: 'literal', value: true });
    expect(check('false and n = 1')).toMatchObject({ kind: 'literal', value: false });
    expect(check('n > -(3)')).toMatchObject({ right: { kind: 'literal', type: 'int', value: -3 } });
    expect(check('7 / 2 = 3.5 and -7 % 2 = -1 and 1 / 0 > 1e308')).toMatchObject({ value: true });
    expect(check('"é" > "z" and "😀" > "\uFFFF"')).toMatchObject({ value: true });
    expect(check('2 in (1, null)')).toMatchObject({ type: 'null' });
    expect(check('1 in (1, null) and null is null')).toMatchObject({ value: true });
  });

  it('keeps large integers exact as int64', () => {
    expect(check('big > 9223372036854775807')).toMatchObject({ right: { type: 'int64', value: 9223372036854775807n } });
    expect(check('9007199254740993 > 9007199254740992.0')).toMatchObject({ value: true });
    expect(check('big + n > 1')).toMatchObject({ left: { kind: 'arith', type: 'int64' } });
    expect(check('n + 1.5 > 1 and n / 2 > 0')).toMatchObject({ left: { left: { type: 'float' } }, right: { left: { type: 'float' } } });
  });

  it("converts ISO strings and datetime variables to the column's unit, exactly", () => {
    expect(check('ts >= "2020-01-01T00:00:00.001Z"')).toMatchObject({ right: { type: 'timestamp[ms]', value: 1_577_836_800_001n } });
    expect(check('ts < $t', { t: { type: 'datetime', value: '2020-01-01T00:00:00.0015Z' } })).toMatchObject({ right: { value: 1_577_836_800_001.5 } });
    expect(check('tus = ?', [new Date(1)])).toMatchObject({ right: { type: 'timestamp[us]', value: 1000n } });
    expect(check("day = '2020-01-02'")).toMatchObject({ right: { type: 'date32', value: 18263 } });
    expect(check('day > $d', { d: { type: 'datetime', value: '2020-01-02T12:00Z' } })).toMatchObject({ right: { value: 18263.5 } });
    expect(check('"2020-01-02" < d64')).toMatchObject({ left: { type: 'date64', value: 1_577_923_200_000n } });
    expect(check('ts in ("1970-01-01", $t)', { t: new Date(5) })).toMatchObject({ kind: 'in', list: [{ value: 0n }, { value: 5n }] });
    expect(check('$a < $b', { a: new Date(1), b: '1970-01-01T00:00:00.002Z' })).toMatchObject({ value: true });
  });

  it('rescales the coarser of two temporal columns', () => {
    expect(check('day < ts')).toMatchObject({ left: { kind: 'rescale', factor: 86_400_000n, type: 'timestamp[ms]', arg: { name: 'day' } }, right: { name: 'ts' } });
    expect(check('tus > ts')).toMatchObject({ left: { name: 'tus' }, right: { kind: 'rescale', factor: 1000n } });
    expect(check('d64 = ts')).toMatchObject({ left: { kind: 'column' }, right: { kind: 'column' } });
  });

  it('rejects invalid ISO strings at their position', () => {
    expect(errorOf('ok and ts > "2020-02-30"')).toMatchObject({ code: 'QueryType', message: 'invalid datetime "2020-02-30" at 12: expected an ISO 8601 date or date-time', position: 12, token: '"2020-02-30"' });
    expect(errorOf('ts > $t', { t: 'soon' })).toMatchObject({ code: 'QueryType', position: 5, token: '$t' });
  });
});

describe('prepareFilter', () => {
  it('returns the typed tree, kernel columns, a canonical key and constants', () => {
    const p = prepareFilter('n > 1 AND (depth < $d or n is null)', schema, { d: 5 });
    expect(p.columns).toEqual(['n', 'depth']);
    expect(p.constant).toBeUndefined();
    expect(p.key).toBe('(and (> (col "n" int32) int:1) (or (< (col "depth" float64) int:5) (isnull (col "n" int32))))');
    expect(prepareFilter('"fetch" == "schema"', schema)).toMatchObject({ constant: false, columns: [] });
    expect(prepareFilter('1 = 1', schema).constant).toBe(true);
    expect(prepareFilter('null = 1', schema).constant).toBeNull();
  });

  it('gives equal keys to equivalent spellings and distinct keys otherwise', () => {
    const key = (q: string, vars?: Vars): string => prepareFilter(q, schema, vars).key;
    expect(key('n>1 and ok')).toBe(key('n  >  1 AND ok'));
    expect(key('n = 1')).toBe(key('n == ?', [1]));
    expect(key('n <> $x', { x: { type: 'integer', value: 1 } })).toBe(key('n != 1'));
    expect(key('big > 1')).toBe('(> (col "big" int64) int:1)');
    expect(key('big > 9007199254740993')).toBe('(> (col "big" int64) int64:9007199254740993n)');
    expect(key('name = "a b"')).not.toBe(key('name = "a"'));
    expect(key('depth = -0.0')).toBe('(== (col "depth" float64) float:-0)');
  });

  it('produces plain, structured-cloneable data', () => {
    const { typed } = prepareFilter('ts > $t and big % n in (1, 2) and day < ts and name >= "é"', schema, { t: new Date(0) });
    const clone = structuredClone(typed);
    expect(clone).toEqual(typed);
    const hasFunctionsOrClasses = (v: unknown): boolean =>
      typeof v === 'function' || (typeof v === 'object' && v !== null && ((Object.getPrototypeOf(v) !== Object.prototype && !Array.isArray(v)) || Object.values(v).some(hasFunctionsOrClasses)));
    expect(hasFunctionsOrClasses(typed)).toBe(false);
  });
});
