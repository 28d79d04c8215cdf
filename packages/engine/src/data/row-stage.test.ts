import * as arrow from 'apache-arrow';
import { type DataType, Field, type RecordBatch, Schema } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHaloclineError } from '../errors.js';
import { normalizeSchema } from '../schema/validate.js';
import { rowsToBatch } from './from-rows.js';
import { RowStage } from './row-stage.js';
import { batchToRows } from './rows.js';

const schemaOf = (...fields: [string, DataType, boolean][]) => normalizeSchema(new Schema(fields.map(([n, t, nl]) => new Field(n, t, nl))));

const schema = schemaOf(
  ['id', new arrow.Int64(), false],
  ['time', new arrow.TimestampMillisecond(), true],
  ['depth', new arrow.Float64(), false],
  ['temp', new arrow.Float32(), true],
  ['n', new arrow.Int32(), true],
  ['name', new arrow.Utf8(), true],
  ['ok', new arrow.Bool(), true],
  ['constructor', new arrow.Utf8(), true],
  // nullable columns of the typed lanes (float64, int64; time above is timestamp[ms])
  ['w', new arrow.Float64(), true],
  ['k', new arrow.Int64(), true],
);

// values of every JS kind, valid for some columns and not for others
const value = fc.oneof(
  fc.double(),
  fc.integer({ min: -5, max: 5 }),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
  fc.string({ maxLength: 4 }),
  fc.boolean(),
  fc.constantFrom(null, undefined),
  fc.integer({ min: -1e12, max: 1e12 }).map((ms) => new Date(ms)),
  fc.constant(new Date(NaN)),
  fc.constant({}),
);
// a good row of the schema (so long runs of valid rows happen), or any keys in any order
const goodRow = fc.record({
  id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  time: fc.option(fc.integer({ min: -1e12, max: 1e12 }).map((ms) => new Date(ms))),
  depth: fc.double(),
  temp: fc.option(fc.float()),
  n: fc.option(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
  name: fc.option(fc.string()),
  ok: fc.option(fc.boolean()),
  constructor: fc.option(fc.string({ maxLength: 3 })),
  w: fc.option(fc.double()),
  k: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
});
const keys = fc.constantFrom(...schema.fields.map((f) => f.name), 'extra', 'Depth');
const anyRow = fc.dictionary(keys, value, { maxKeys: 9 });
const row = fc.oneof(
  { weight: 8, arbitrary: goodRow },
  { weight: 1, arbitrary: anyRow },
  { weight: 1, arbitrary: goodRow.map((r) => reorder(r)) },
  // the keys of a good row plus one more at the end, unknown or not
  { weight: 1, arbitrary: fc.tuple(goodRow, keys, value).map(([r, k, v]) => ({ ...r, [k]: v })) },
);

// the same keys and values in reverse order (another V8 shape, another key list)
function reorder(r: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r).reverse());
}

function outcome(f: () => RecordBatch): unknown {
  try {
    const batch = f();
    return { rows: batchToRows(batch), nulls: batch.schema.fields.map((_, j) => batch.data.children[j]!.nullCount) };
  } catch (e) {
    if (!isHaloclineError(e, 'InvalidData')) throw e;
    return { error: e.message, row: e.row, column: e.column, value: e.value };
  }
}

describe('RowStage', () => {
  it('converts rows exactly as rowsToBatch does: same batch, or the same error (row, column, message)', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), fc.integer({ min: 1, max: 70 }), (rows, cut) => {
        const stage = new RowStage(schema);
        // staged in two conversions, as a transaction does every 2048 rows
        const first = rows.slice(0, cut);
        const rest = rows.slice(cut);
        for (const r of first) stage.add(r);
        expect(stage.size).toBe(first.length);
        expect(outcome(() => stage.toBatch({ table: 't' }))).toEqual(outcome(() => rowsToBatch(schema, first, { table: 't' })));
        expect(stage.size).toBe(0);
        for (const r of rest) stage.add(r);
        expect(outcome(() => stage.toBatch({ table: 't' }))).toEqual(outcome(() => rowsToBatch(schema, rest, { table: 't' })));
      }),
      { numRuns: 300 },
    );
  });
  it('names the first unknown key, unless a lower row has a bad value', () => {
    const stage = new RowStage(schema);
    stage.add({ id: 1n, depth: 1 });
    stage.add({ id: 2n, depth: 'x' });
    stage.add({ id: 3n, depth: 3, Depth: 3 });
    expect(outcome(() => stage.toBatch({}))).toMatchObject({ row: 1, column: 'depth' });
    stage.add({ id: 1n, depth: 1 });
    stage.add({ id: 3n, depth: 3, Depth: 3 });
    stage.add({ id: 2n, depth: 'x' });
    expect(outcome(() => stage.toBatch({}))).toMatchObject({ row: 1, column: 'Depth', value: 3 });
    // the stage is empty again and takes good rows
    stage.add({ depth: 2, id: 5n });
    expect(batchToRows(stage.toBatch({}))[0]).toMatchObject({ id: 5n, depth: 2, name: null });
  });
  it('leaves a row whose getter throws unstaged', () => {
    const stage = new RowStage(schema);
    stage.add({ id: 1n, depth: 1, name: 'a' });
    const bad = {
      id: 2n,
      depth: 2,
      get name(): string {
        throw new Error('boom');
      },
    };
    expect(() => stage.add(bad)).toThrow('boom');
    stage.add({ id: 3n, depth: 3 });
    expect(stage.size).toBe(2);
    expect(batchToRows(stage.toBatch({})).map((r) => [r.id, r.name])).toEqual([
      [1n, 'a'],
      [3n, null],
    ]);
  });
  it('forgets the values a throwing row had set aside (null, wrong type) for its typed columns', () => {
    const stage = new RowStage(schema);
    const bad = {
      id: 'not a bigint',
      time: null,
      depth: null,
      get name(): string {
        throw new Error('boom');
      },
    };
    expect(() => stage.add(bad)).toThrow('boom');
    stage.add({ id: 3n, time: new Date(5), depth: -0, w: NaN, k: 2n ** 63n - 1n });
    const rows = batchToRows(stage.toBatch({}));
    expect(rows).toEqual([expect.objectContaining({ id: 3n, time: new Date(5), depth: -0, w: NaN, k: 2n ** 63n - 1n })]);
    expect(Object.is(rows[0]!.depth, -0)).toBe(true);
  });
  it('rejects what a typed column cannot hold, naming the row and column, as the column writers do', () => {
    const stage = new RowStage(schema);
    stage.add({ id: 1n, depth: 1 });
    stage.add({ id: 2n ** 63n, depth: 2 });
    expect(outcome(() => stage.toBatch({}))).toMatchObject({ row: 1, column: 'id', value: 2n ** 63n });
    stage.add({ id: 1n, depth: 1, time: new Date(NaN) });
    expect(outcome(() => stage.toBatch({}))).toMatchObject({ row: 0, column: 'time' });
    stage.add({ id: 1n, depth: 1 });
    stage.add({ id: 2n, depth: undefined });
    expect(outcome(() => stage.toBatch({}))).toMatchObject({ row: 1, column: 'depth' });
  });
  it('grows its typed columns past the first block of rows', () => {
    const stage = new RowStage(schema);
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: BigInt(i) * 3n ** 30n, time: new Date(i * 1000), depth: i / 7, w: i % 3 === 0 ? null : -i, k: i % 5 === 0 ? null : BigInt(-i) }));
    for (const r of rows) stage.add(r);
    expect(outcome(() => stage.toBatch({ table: 't' }))).toEqual(outcome(() => rowsToBatch(schema, rows, { table: 't' })));
  });
  it('reads a column named like an Object.prototype member only as an own property', () => {
    const stage = new RowStage(schema);
    stage.add({ id: 1n, depth: 1 });
    stage.add(JSON.parse('{"constructor": "c"}') as Record<string, unknown>);
    expect(outcome(() => stage.toBatch({}))).toMatchObject({ row: 1, column: 'id' });
    stage.add({ id: 1n, depth: 1 });
    stage.add({ id: 2n, depth: 2, constructor: 'c' });
    expect(batchToRows(stage.toBatch({})).map((r) => r.constructor)).toEqual([null, 'c']);
  });
});
