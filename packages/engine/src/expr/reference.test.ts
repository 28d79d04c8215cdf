// The reference evaluator: truth tables and scalar semantics.
import { Bool, Field, Float64, Int32, Int64, Schema, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { prepareFilter } from './prepare.js';
import { evaluateRow } from './reference.js';

const schema = new Schema([
  new Field('a', new Bool(), true),
  new Field('b', new Bool(), true),
  new Field('n', new Int32(), true),
  new Field('big', new Int64(), true),
  new Field('x', new Float64(), true),
  new Field('s', new Utf8(), true),
]);

const evaluate = (query: string, row: Record<string, unknown>): boolean | null => evaluateRow(prepareFilter(query, schema).typed, (c) => row[c] ?? null);

describe('evaluateRow', () => {
  it('follows the Kleene truth tables', () => {
    const values = [true, false, null];
    const and = values.map((a) => values.map((b) => evaluate('a and b', { a, b })));
    const or = values.map((a) => values.map((b) => evaluate('a or b', { a, b })));
    expect(and).toEqual([[true, false, null], [false, false, false], [null, false, null]]);
    expect(or).toEqual([[true, true, true], [true, false, null], [true, null, null]]);
    expect(values.map((a) => evaluate('not a', { a }))).toEqual([false, true, null]);
  });

  it('gives null for comparisons with null and for in-lists that only miss null', () => {
    expect(evaluate('n = 1', {})).toBeNull();
    expect(evaluate('n in (1, null)', { n: 2 })).toBeNull();
    expect(evaluate('n in (1, null)', { n: 1 })).toBe(true);
    expect(evaluate('n not in (1, 2)', { n: 3 })).toBe(true);
    expect(evaluate('n is null', {})).toBe(true);
  });

  it('implements the numeric semantics', () => {
    expect(evaluate('n % 3 = -1', { n: -7 })).toBe(true);
    expect(evaluate('(n % 0) is null', { n: 7 })).toBe(true);
    expect(evaluate('x % 0 != x % 0', { x: 7 })).toBe(true); // NaN
    expect(evaluate('n / 2 = 3.5', { n: 7 })).toBe(true);
    expect(evaluate('big + 1 = 9007199254740994', { big: 9007199254740993n })).toBe(true);
    expect(evaluate('big * n > 9223372036854775807', { big: 9223372036854775807n, n: 2 })).toBe(true);
    expect(evaluate('big = n', { big: 5, n: 5n })).toBe(true); // row values are coerced to the column representation
    expect(evaluate('x = 1 or x != 1', { x: NaN })).toBe(true);
    expect(evaluate('x < 1 or x >= 1', { x: NaN })).toBe(false);
  });

  it('orders strings by UTF-8 bytes (code points), not UTF-16 units', () => {
    expect(evaluate('s > "\uFFFF"', { s: '😀' })).toBe(true);
    expect(evaluate('s < "b"', { s: 'ab' })).toBe(true);
    expect(evaluate('s < "a"', { s: '' })).toBe(true);
  });
});
