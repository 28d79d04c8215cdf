// OQS parsing (errors say where) and evaluation, geometry included.
import { describe, expect, it } from 'vitest';
import { OqsError, compileOqs, parseOqs } from './index.js';

const where = (filter: unknown): string => {
  try {
    parseOqs(filter);
  } catch (e) {
    if (e instanceof OqsError) return e.where;
    throw e;
  }
  throw new Error('parsed');
};
const test = (filter: unknown, obj: unknown) => compileOqs(parseOqs(filter))(obj);
const poly = { type: 'Polygon', coordinates: [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]] };

describe('parseOqs', () => {
  it('accepts nothing, {} and match-by-example as "everything" / subset match', () => {
    expect(test(undefined, {})).toBe(true);
    expect(test({}, { a: 1 })).toBe(true);
    expect(test({ metadata: { k: 'v' } }, { metadata: { k: 'v', other: 1 } })).toBe(true);
    expect(test({ metadata: { k: 'v' } }, { metadata: { k: 'w' } })).toBe(false);
    expect(test({ metadata: { k: 'v' } }, { metadata: null })).toBe(false);
  });

  it('points at the offending operand', () => {
    expect(where({ '#AND': [{ '#EQUALS': ['$a', 1] }, { '#OR': [{ '#LESS_THAN': ['$a'] }] }] })).toBe('#AND[1].#OR[0].#LESS_THAN');
    expect(where({ '#ST_WITHIN': ['$g', { type: 'Point', coordinates: [1] }] })).toBe('#ST_WITHIN[1]');
    expect(where({ '#ST_WITHIN': [poly, poly] })).toBe('#ST_WITHIN');
    expect(where({ '#NEGATE': [{ '#X': 1 }] })).toBe('#NEGATE[0]');
    expect(where({ '#WITHIN': ['$a', 5] })).toBe('#WITHIN[1]');
    expect(where({ '#EQUALS': ['$a..b', 1] })).toBe('#EQUALS[0]');
    expect(where('text')).toBe('');
    let deep: unknown = { '#EQUALS': ['$a', 1] };
    for (let i = 0; i < 100; i++) deep = { '#NEGATE': deep };
    expect(where(deep)).toMatch(/^#NEGATE/);
  });
});

describe('compileOqs', () => {
  const r = { kind: 'k', n: 5, s: 'b', tags: ['x', 'y'], nested: { v: null }, spec: { details: { value: poly } } };

  it('compares numbers with numbers and strings with strings only', () => {
    expect(test({ '#GREATER_THAN': ['$n', 4] }, r)).toBe(true);
    expect(test({ '#GREATER_THAN': ['$n', '4'] }, r)).toBe(false);
    expect(test({ '#LESS_THAN': ['a', '$s'] }, r)).toBe(true);
    expect(test({ '#GREATER_THAN_OR_EQUALS': ['$missing', 0] }, r)).toBe(false);
    expect(test({ '#EQUALS': ['$tags', ['x', 'y']] }, r)).toBe(true);
    expect(test({ '#EQUALS': ['$n', '$n'] }, r)).toBe(true);
  });

  it('#WITHIN against a literal list or a list field; #NULL / #NON_NULL', () => {
    expect(test({ '#WITHIN': ['$s', ['a', 'b']] }, r)).toBe(true);
    expect(test({ '#WITHIN': ['y', '$tags'] }, r)).toBe(true);
    expect(test({ '#WITHIN': ['z', '$tags'] }, r)).toBe(false);
    expect(test({ '#NULL': '$nested.v' }, r)).toBe(true);
    expect(test({ '#NULL': '$nope' }, r)).toBe(true);
    expect(test({ '#NON_NULL': ['$n'] }, r)).toBe(true);
  });

  it('geometry: $spec.details.value.geometry reaches a geometry value; predicates are exact', () => {
    const inside = { type: 'Point', coordinates: [1, 1] };
    const corner = { type: 'Polygon', coordinates: [[[3.5, 3.5], [5, 3.5], [5, 5], [3.5, 5], [3.5, 3.5]]] };
    const diagonalMiss = { type: 'LineString', coordinates: [[4.5, 0], [6, 2]] };
    expect(test({ '#ST_CONTAINS': ['$spec.details.value.geometry', inside] }, r)).toBe(true);
    expect(test({ '#ST_INTERSECTS': ['$spec.details.value.geometry', corner] }, r)).toBe(true);
    expect(test({ '#ST_WITHIN': ['$spec.details.value', corner] }, r)).toBe(false);
    expect(test({ '#ST_WITHIN': [inside, '$spec.details.value'] }, r)).toBe(true);
    expect(test({ '#ST_INTERSECTS': ['$spec.details.value', diagonalMiss] }, r)).toBe(false);
    expect(test({ '#ST_EQUALS': ['$spec.details.value', { ...poly, coordinates: [[[4, 4], [0, 4], [0, 0], [4, 0], [4, 4]]] }] }, r)).toBe(true);
    expect(test({ '#ST_INTERSECTS': ['$kind', poly] }, r)).toBe(false);
    expect(test({ '#ST_WITHIN': ['$w', poly] }, { w: 'POINT (2 2)' })).toBe(true);
    expect(test({ '#ST_WITHIN': ['$w', poly] }, { w: { type: 'Feature', geometry: inside, properties: {} } })).toBe(true);
  });
});

describe('bigint literals (tabular v1 reads integers beyond 2^53 as bigints)', () => {
  it('parse where numbers parse; errors and geometry literals take them without throwing', () => {
    expect(parseOqs({ '#WITHIN': ['$id', [9007199254740993n]] })).toEqual({ kind: 'in', value: { kind: 'path', path: ['id'], text: '$id' }, list: { kind: 'literal', value: [9007199254740993n] } });
    expect(() => parseOqs({ '#EQUALS': 9007199254740993n })).toThrow('invalid OQS filter at #EQUALS: expected an array of exactly 2 operand(s), got 9007199254740993');
    // coordinates are doubles: the nearest double is judged
    expect(() => parseOqs({ '#ST_WITHIN': ['$g', { type: 'Point', coordinates: [9007199254740993n, 0] }] })).toThrow(/position \[9007199254740992,0\] is outside longitude/);
    expect(test({ '#ST_WITHIN': ['$g', { type: 'Point', coordinates: [1n, 1n] }] }, { g: poly })).toBe(false);
    expect(test({ '#ST_WITHIN': [{ type: 'Point', coordinates: [1n, 1n] }, '$g'] }, { g: poly })).toBe(true);
  });

  it('compare exactly with numbers and decimal strings (the forms of v1 int64 values), and with nothing else', () => {
    const big = { a: '9007199254740993', b: 5, c: 'x', d: null, e: 5.5 };
    expect(test({ '#EQUALS': ['$a', 9007199254740993n] }, big)).toBe(true);
    expect(test({ '#EQUALS': ['$a', 9007199254740992n] }, big)).toBe(false);
    expect(test({ '#GREATER_THAN': ['$a', 9007199254740992n] }, big)).toBe(true);
    expect(test({ '#LESS_THAN': [9007199254740992n, '$a'] }, big)).toBe(true);
    expect(test({ '#WITHIN': ['$b', [1n, 5n]] }, big)).toBe(true);
    expect(test({ '#GREATER_THAN': ['$e', 5n] }, big)).toBe(true);
    expect(test({ '#LESS_THAN': ['$e', 6n] }, big)).toBe(true);
    for (const path of ['$c', '$d', '$missing']) {
      expect(test({ '#EQUALS': [path, 0n] }, big)).toBe(false);
      expect(test({ '#GREATER_THAN': [path, 0n] }, big)).toBe(false);
      expect(test({ '#LESS_THAN_OR_EQUALS': [path, 0n] }, big)).toBe(false);
    }
    expect(test({ a: 9007199254740993n }, big)).toBe(true);
  });
});

describe('geometries jsts cannot compare', () => {
  // a bowtie: its ring crosses itself at (22, 22)
  const bowtie = { type: 'Polygon', coordinates: [[[20, 20], [24, 24], [24, 20], [20, 24], [20, 20]]] };
  const triangle = { type: 'Polygon', coordinates: [[[22, 22], [23, 21], [23, 23], [22, 22]]] };
  const message = (filter: unknown): string => {
    try {
      parseOqs(filter);
    } catch (e) {
      if (e instanceof OqsError) return e.message;
      throw e;
    }
    throw new Error('parsed');
  };

  it('an invalid literal is refused at parse time, naming the operator, the problem and where', () => {
    expect(where({ '#AND': [{ '#EQUALS': ['$kind', 'k'] }, { '#ST_WITHIN': ['$g', bowtie] }] })).toBe('#AND[1].#ST_WITHIN[1]');
    expect(message({ '#ST_INTERSECTS': [bowtie, '$g'] })).toBe('invalid OQS filter at #ST_INTERSECTS[0]: the #ST_INTERSECTS geometry is not a valid geometry: Self-intersection at (22, 22)');
  });

  it('a stored invalid geometry matches no spatial operator, on either side, and never throws', () => {
    const stored = { spec: { details: { value: bowtie } } };
    for (const op of ['#ST_INTERSECTS', '#ST_CONTAINS', '#ST_WITHIN', '#ST_EQUALS']) {
      expect(test({ [op]: ['$spec.details.value.geometry', triangle] }, stored)).toBe(false);
      expect(test({ [op]: [triangle, '$spec.details.value'] }, stored)).toBe(false);
    }
    expect(test({ '#NEGATE': { '#ST_INTERSECTS': ['$spec.details.value', triangle] } }, stored)).toBe(true);
  });
});
