// The engine translation of OQS selects exactly the rows the row-by-row OQS evaluation selects.
import { openStore, type Store } from '@halocline/engine';
import { Field, Float64, Int32, Int64, Schema, Uint64, Utf8 } from 'apache-arrow';
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileOqs, type OqsNode, parseOqs } from '../oqs/index.js';
import { listRows, openList } from './list.js';
import { toEngineFilter } from './to-query.js';

let dir: string;
let store: Store;
// int64 values either side of 2^53 and at the limits, which list writes as numbers or decimal strings
const EDGES = [0n, 5n, -5n, 2n ** 53n, -(2n ** 53n), 2n ** 63n - 1n, -(2n ** 63n)];
const wideRows = [...EDGES.flatMap((e) => [e - 1n, e, e + 1n]).filter((d) => d >= -(2n ** 63n) && d < 2n ** 63n), null].map((d) => ({ d }));
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
  await store.table('w').create(new Schema([new Field('d', new Int64(), true)]));
  await store.table('w').insert(wideRows);
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

// literals for the int64 column d: bigints near its values, safe numbers, decimal strings, fractions
const wideLiteral: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(fc.constantFrom(...EDGES), fc.integer({ min: -2, max: 2 })).map(([e, k]) => e + BigInt(k)),
  fc.integer({ min: -7, max: 7 }),
  fc.tuple(fc.constantFrom(...EDGES), fc.integer({ min: -1, max: 1 })).map(([e, k]) => String(e + BigInt(k))),
  fc.constantFrom(4.5, -0.5, 5.25),
);
const wideLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(fc.constantFrom('#EQUALS', '#GREATER_THAN', '#GREATER_THAN_OR_EQUALS', '#LESS_THAN', '#LESS_THAN_OR_EQUALS'), wideLiteral, fc.boolean())
    .map(([op, v, flip]) => ({ [op]: flip ? [v, '$d'] : ['$d', v] })),
  fc.array(wideLiteral, { minLength: 1, maxLength: 3 }).map((vs) => ({ '#WITHIN': ['$d', vs] })),
  fc.constant({ '#EQUALS': ['$d', null] }),
);
const wideFilter: fc.Arbitrary<unknown> = fc.letrec<{ f: unknown }>((tie) => ({
  f: fc.oneof({ depthSize: 'small', withCrossShrink: true }, wideLeaf, fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((xs) => ({ '#AND': xs })), fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((xs) => ({ '#OR': xs })), tie('f').map((x) => ({ '#NEGATE': x }))),
})).f;
// true of every row, and only evaluated row by row (a nested path): joined with #AND, a filter is tested row by row
const ROW_BY_ROW = { '#NEGATE': { '#EQUALS': ['$d.x', 1] } };

// the rows of table `name` a listing with `node` answers
async function listed(name: string, node: OqsNode): Promise<unknown[]> {
  const got: unknown[] = [];
  const park = (): string => {
    throw new Error('nothing to park: no limit');
  };
  const schema = (await store.table(name).schema())!;
  for await (const item of listRows(openList(store.table(name), schema, node), { limit: 1e9, budgetMs: 1e9, park })) if ('rows' in item) got.push(...item.rows);
  return got;
}

describe('toEngineFilter', () => {
  it('translates every operator but geometry and match-by-example', () => {
    expect(toEngineFilter(parseOqs({ '#GREATER_THAN': [100, '$depth'] }))).toEqual({ query: '`depth` is not null and `depth` < $v0', vars: { v0: 100 } });
    expect(toEngineFilter(parseOqs({ '#ST_INTERSECTS': ['$g', { type: 'Point', coordinates: [0, 0] }] }))).toBeUndefined();
    expect(toEngineFilter(parseOqs({ x: 1 }))).toBeUndefined();
    expect(toEngineFilter(parseOqs({ '#EQUALS': ['$a.b', 1] }))).toBeUndefined();
  });

  it('binds decimal strings and bigints compared with int64/uint64 columns as exact bigints, and refuses unsafe doubles there', () => {
    const wide = new Schema([new Field('id', new Int64(), true), new Field('u', new Uint64(), true), new Field('c', new Utf8(), true), new Field('x', new Float64(), true)]);
    expect(toEngineFilter(parseOqs({ '#EQUALS': ['$id', '9007199254740993'] }), wide)?.vars).toEqual({ v0: 9007199254740993n });
    expect(toEngineFilter(parseOqs({ '#WITHIN': ['$u', ['18446744073709551615', 3]] }), wide)?.vars).toEqual({ v0: 18446744073709551615n, v1: 3 });
    // bigints, as the v1 scope reads integers beyond 2^53: exactly for int64/uint64, as the nearest double elsewhere
    expect(toEngineFilter(parseOqs({ '#EQUALS': [9007199254740993n, '$id'] }), wide)).toEqual({ query: '`id` is not null and `id` == $v0', vars: { v0: 9007199254740993n } });
    expect(toEngineFilter(parseOqs({ '#WITHIN': ['$u', [18446744073709551615n, -1n]] }), wide)?.vars).toEqual({ v0: 18446744073709551615n, v1: -1n });
    expect(toEngineFilter(parseOqs({ '#EQUALS': ['$x', 9007199254740993n] }), wide)?.vars).toEqual({ v0: 9007199254740992 });
    expect(toEngineFilter(parseOqs({ '#EQUALS': ['$c', 9007199254740993n] }), wide)?.vars).toEqual({ v0: 9007199254740992 });
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

  it('selects the same int64 rows as the row-by-row evaluation, beyond 2^53 and at the limits, for bigint, number, string and fraction literals', async () => {
    const key = (r: unknown): string => String((r as { d: unknown }).d);
    await fc.assert(
      fc.asyncProperty(wideFilter, async (f) => {
        const node = parseOqs(f);
        const schema = (await store.table('w').schema())!;
        expect(toEngineFilter(node, schema)).toBeDefined();
        const rowByRow = parseOqs({ '#AND': [f, ROW_BY_ROW] });
        expect(toEngineFilter(rowByRow, schema)).toBeUndefined();
        expect((await listed('w', rowByRow)).map(key).sort()).toEqual((await listed('w', node)).map(key).sort());
      }),
      { numRuns: 300 },
    );
  });
});
