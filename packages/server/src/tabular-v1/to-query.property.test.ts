// The engine translation of OQS selects exactly the rows the row-by-row OQS evaluation selects.
import { openStore, type Store } from '@halocline/engine';
import { Field, Float64, Int32, Int64, Schema, Uint64, Utf8 } from 'apache-arrow';
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileOqs, parseOqs } from '../oqs/index.js';
import { listRows, openList } from './list.js';
import { toEngineFilter } from './to-query.js';

let dir: string;
let store: Store;
const rows = Array.from({ length: 200 }, (_, i) => ({
  a: i % 7 === 0 ? null : (i * 37) % 23 - 11,
  b: i % 5 === 0 ? null : ((i * 13) % 17) / 4 - 2,
  c: i % 6 === 0 ? null : ['ab', 'b', 'ba', 'c', ''][i % 5]!,
}));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'halocline-oqs-'));
  store = await openStore({ path: dir, workers: 0 });
  await store.table('t').create(new Schema([new Field('a', new Int32(), true), new Field('b', new Float64(), true), new Field('c', new Utf8(), true)]));
  await store.table('t').insert(rows);
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const column = fc.constantFrom(['$a', fc.integer({ min: -12, max: 12 })] as const, ['$b', fc.double({ min: -3, max: 3, noNaN: true })] as const, ['$c', fc.constantFrom('ab', 'b', 'ba', 'c', '', 'z')] as const);
const leaf: fc.Arbitrary<unknown> = column.chain(([path, value]) =>
  fc.oneof(
    fc.tuple(fc.constantFrom('#EQUALS', '#GREATER_THAN', '#GREATER_THAN_OR_EQUALS', '#LESS_THAN', '#LESS_THAN_OR_EQUALS'), value as fc.Arbitrary<unknown>, fc.boolean())
      .map(([op, v, flip]) => ({ [op]: flip ? [v, path] : [path, v] })),
    fc.array(value as fc.Arbitrary<unknown>, { minLength: 1, maxLength: 3 }).map((vs) => ({ '#WITHIN': [path, vs] })),
    fc.constantFrom({ '#NULL': path }, { '#NON_NULL': path }, { '#EQUALS': [path, null] }),
  ),
);
const filter: fc.Arbitrary<unknown> = fc.letrec<{ f: unknown }>((tie) => ({
  f: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((xs) => ({ '#AND': xs })), fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((xs) => ({ '#OR': xs })), tie('f').map((x) => ({ '#NEGATE': x }))),
})).f;

describe('toEngineFilter', () => {
  it('translates every operator but geometry and match-by-example', () => {
    expect(toEngineFilter(parseOqs({ '#GREATER_THAN': [100, '$depth'] }))).toEqual({ query: '`depth` is not null and `depth` < $v0', vars: { v0: 100 } });
    expect(toEngineFilter(parseOqs({ '#ST_INTERSECTS': ['$g', { type: 'Point', coordinates: [0, 0] }] }))).toBeUndefined();
    expect(toEngineFilter(parseOqs({ x: 1 }))).toBeUndefined();
    expect(toEngineFilter(parseOqs({ '#EQUALS': ['$a.b', 1] }))).toBeUndefined();
  });

  it('binds decimal strings compared with int64/uint64 columns as exact bigints, and refuses JSON numbers beyond 2^53 there', () => {
    const wide = new Schema([new Field('id', new Int64(), true), new Field('u', new Uint64(), true), new Field('c', new Utf8(), true)]);
    expect(toEngineFilter(parseOqs({ '#EQUALS': ['$id', '9007199254740993'] }), wide)?.vars).toEqual({ v0: 9007199254740993n });
    expect(toEngineFilter(parseOqs({ '#WITHIN': ['$u', ['18446744073709551615', 3]] }), wide)?.vars).toEqual({ v0: 18446744073709551615n, v1: 3 });
    // other columns, and no schema, keep strings as strings
    expect(toEngineFilter(parseOqs({ '#EQUALS': ['$c', '12'] }), wide)?.vars).toEqual({ v0: '12' });
    expect(toEngineFilter(parseOqs({ '#EQUALS': ['$id', '12'] }))?.vars).toEqual({ v0: '12' });
    expect(() => toEngineFilter(parseOqs({ '#LESS_THAN': [2 ** 60, '$id'] }), wide)).toThrow(/column 'id'.*beyond 2\^53/);
    expect(() => toEngineFilter(parseOqs({ '#EQUALS': ['$id', '1e3'] }), wide)).toThrow(/column 'id': expected an integer/);
  });

  it('selects the same rows as the row-by-row evaluation', async () => {
    await fc.assert(
      fc.asyncProperty(filter, async (f) => {
        const node = parseOqs(f);
        expect(toEngineFilter(node)).toBeDefined();
        const got: unknown[] = [];
        const park = (): string => {
          throw new Error('nothing to park: no limit');
        };
        const schema = (await store.table('t').schema())!;
        for await (const item of listRows(openList(store.table('t'), schema, node), { limit: 1e9, budgetMs: 1e9, park })) if ('rows' in item) got.push(...item.rows);
        expect(got).toEqual(rows.filter(compileOqs(node)));
      }),
      { numRuns: 200 },
    );
  });
});
