// Bigints from the exact JSON parser back to JSON.parse's values, and into message text.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { jsonText, roundedJson } from './exact-json.js';

describe('roundedJson', () => {
  it('makes every bigint the double JSON.parse reads for its digits, at any depth', () => {
    const text = '{"a": [9007199254740993, {"b": -9223372036854775809}], "c": 18446744073709551615, "d": "9007199254740993"}';
    expect(roundedJson({ a: [9007199254740993n, { b: -9223372036854775809n }], c: 18446744073709551615n, d: '9007199254740993' })).toEqual(JSON.parse(text));
    expect(roundedJson(10n ** 400n)).toBe(Number.POSITIVE_INFINITY);
  });

  it('returns what holds no bigint as it is, and copies only what changes', () => {
    const plain = { a: [1, { b: 'x' }], c: null };
    expect(roundedJson(plain)).toBe(plain);
    const mixed = { keep: { x: [1] }, change: [2n] };
    const out = roundedJson(mixed) as typeof mixed;
    expect(out).not.toBe(mixed);
    expect(out.keep).toBe(mixed.keep);
    expect(mixed.change).toEqual([2n]);
    const stream = Readable.from([]);
    expect(roundedJson(stream)).toBe(stream);
  });
});

describe('jsonText', () => {
  it('writes bigints as integers and everything else as JSON.stringify does', () => {
    expect(jsonText({ id: 9007199254740993n, s: 'a"b', n: [1.5, null] })).toBe('{"id":9007199254740993,"s":"a\\"b","n":[1.5,null]}');
    expect(jsonText(undefined)).toBeUndefined();
  });
});
