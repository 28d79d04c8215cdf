import * as arrow from 'apache-arrow';
import { type DataType, Field, type RecordBatch, Schema } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHaloclineError } from '../errors.js';
import { checkSpatial } from '../geo/validate.js';
import { parseGeometry } from '../geo/parse.js';
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
  // strings UTF-8 cannot hold (an unpaired surrogate)
  fc.constantFrom('a\ud800', '\udc00'),
  fc.constantFrom(3.5e38, -1e39, Infinity, 2 ** 53 + 2),
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

// what `add` did: null when it took the row, else the error as `outcome` shows one
function added(stage: RowStage, r: Record<string, unknown>): unknown {
  try {
    stage.add(r);
    return null;
  } catch (e) {
    if (!isHaloclineError(e, 'InvalidData')) throw e;
    return { error: e.message, row: e.row, column: e.column, value: e.value };
  }
}

describe('RowStage', () => {
  it('takes a row exactly when rowsToBatch takes it alone (else the same error), and converts the rows taken as rowsToBatch does', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), fc.integer({ min: 0, max: 70 }), (rows, cut) => {
        const stage = new RowStage(schema, { table: 't' });
        let taken: Record<string, unknown>[] = [];
        for (const [i, r] of rows.entries()) {
          // converted in two parts, as a transaction does every 2048 rows
          if (i === cut) {
            expect(outcome(() => stage.toBatch({ table: 't' }))).toEqual(outcome(() => rowsToBatch(schema, taken, { table: 't' })));
            taken = [];
          }
          const alone = outcome(() => rowsToBatch(schema, [r], { table: 't' }));
          if ('error' in (alone as object)) expect(added(stage, r)).toEqual(alone);
          else {
            expect(added(stage, r)).toBeNull();
            taken.push(r);
          }
          expect(stage.size).toBe(taken.length);
        }
        expect(outcome(() => stage.toBatch({ table: 't' }))).toEqual(outcome(() => rowsToBatch(schema, taken, { table: 't' })));
        expect(stage.size).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
  it('refuses a row with an unknown key or a bad value at its add, naming the column (the key first), and stages nothing of it', () => {
    const stage = new RowStage(schema, { table: 't' });
    stage.add({ id: 1n, depth: 1 });
    expect(added(stage, { id: 2n, depth: 'x' })).toMatchObject({ row: 0, column: 'depth', value: 'x' });
    expect(added(stage, { id: 3n, depth: 'x', Depth: 3 })).toMatchObject({ row: 0, column: 'Depth', value: 3 });
    expect(added(stage, { id: 3n, depth: 3, n: 1.5, name: 5 })).toMatchObject({ row: 0, column: 'n', error: 'row 0, column "n": 1.5 is not an integer (int32)' });
    stage.add({ depth: 2, id: 5n });
    expect(batchToRows(stage.toBatch({})).map((r) => [r.id, r.depth, r.name])).toEqual([
      [1n, 1, null],
      [5n, 2, null],
    ]);
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
  it('forgets the values a throwing row had set aside (null, another type) for its typed columns', () => {
    const stage = new RowStage(schema);
    const bad = {
      id: 2,
      time: null,
      depth: 2n,
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
  it('rejects what a typed column cannot hold, naming the column, as the column writers do', () => {
    const stage = new RowStage(schema);
    stage.add({ id: 1n, depth: 1 });
    expect(added(stage, { id: 2n ** 63n, depth: 2 })).toMatchObject({ row: 0, column: 'id', value: 2n ** 63n });
    expect(added(stage, { id: 1n, depth: 1, time: new Date(NaN) })).toMatchObject({ row: 0, column: 'time' });
    expect(added(stage, { id: 2n, depth: undefined })).toMatchObject({ row: 0, column: 'depth', error: 'row 0, column "depth": missing value in a non-nullable column' });
    expect(added(stage, { id: 2n, depth: null })).toMatchObject({ row: 0, column: 'depth', error: 'row 0, column "depth": null in a non-nullable column' });
    expect(stage.size).toBe(1);
  });
  it('grows its typed columns past the first block of rows', () => {
    const stage = new RowStage(schema);
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: BigInt(i) * 3n ** 30n, time: new Date(i * 1000), depth: i / 7, w: i % 3 === 0 ? null : -i, k: i % 5 === 0 ? null : BigInt(-i) }));
    for (const r of rows) stage.add(r);
    expect(outcome(() => stage.toBatch({ table: 't' }))).toEqual(outcome(() => rowsToBatch(schema, rows, { table: 't' })));
  });
  it('makes its batches in shared memory (typed lanes, converted and text columns), with the rows staged since the last', () => {
    const stage = new RowStage(schema);
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: BigInt(from + i), time: new Date(from + i), depth: from + i, temp: i % 2 ? null : i, n: i, name: `s${from + i}`, ok: i % 3 === 0, w: from - i }));
    for (const [from, n] of [
      [0, 3000],
      [3000, 7],
    ] as const) {
      for (const r of rows(from, n)) stage.add(r);
      const batch = stage.toBatch({ table: 't' });
      const buffers = batch.data.children.flatMap((c) => [c.values, c.valueOffsets, c.nullBitmap].filter((b) => b !== undefined && b !== null && b.byteLength > 0));
      expect(buffers.length).toBeGreaterThan(batch.numCols);
      for (const b of buffers) expect((b as ArrayBufferView).buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(batchToRows(batch)).toEqual(batchToRows(rowsToBatch(schema, rows(from, n), { table: 't' })));
    }
  });
  it('reads a column named like an Object.prototype member only as an own property', () => {
    const stage = new RowStage(schema);
    stage.add({ id: 1n, depth: 1 });
    expect(added(stage, JSON.parse('{"constructor": "c"}') as Record<string, unknown>)).toMatchObject({ row: 0, column: 'id' });
    stage.add({ id: 2n, depth: 2, constructor: 'c' });
    expect(batchToRows(stage.toBatch({})).map((r) => r.constructor)).toEqual([null, 'c']);
  });
  it('checks spatial values at add as an insert checks them: geometry (WKT, WKB), latitude, longitude', () => {
    const meta = (klass: string) => new Map([['class', klass]]);
    const spatial = normalizeSchema(
      new Schema([
        new Field('wkt', new arrow.Utf8(), true, meta('geometry')),
        new Field('wkb', new arrow.Binary(), false, meta('geometry')),
        new Field('lat', new arrow.Float64(), true, meta('latitude')),
        new Field('lon', new arrow.Float32(), true, meta('longitude')),
      ]),
    );
    const wkb = (wkt: string) => new Uint8Array(parseGeometry(wkt).toWkb());
    const geometry = fc.constantFrom('POINT(1 2)', 'POLYGON((0 0, 1 0, 1 1, 0 0))', 'POINT(181 0)', 'POLYGON((0 0, 1', 'POINT EMPTY', 'nope', null);
    const coordinate = fc.oneof(fc.double({ min: -200, max: 200 }), fc.constantFrom(null, NaN, 90, -180, '5'));
    const spatialRow = fc.record({
      wkt: geometry,
      wkb: fc.oneof(geometry.map((g) => (g === null || g === 'nope' || g.endsWith(', 1') ? new Uint8Array([1, 1, 0]) : wkb(g))), fc.constant(null)),
      lat: coordinate,
      lon: coordinate,
    });
    fc.assert(
      fc.property(fc.array(spatialRow, { maxLength: 20 }), (rows) => {
        const stage = new RowStage(spatial, { table: 't' });
        const taken: Record<string, unknown>[] = [];
        for (const r of rows) {
          const alone = outcome(() => {
            const batch = rowsToBatch(spatial, [r], { table: 't' });
            checkSpatial(spatial, [batch], { table: 't' });
            return batch;
          });
          if ('error' in (alone as object)) expect(added(stage, r)).toMatchObject({ error: (alone as { error: string }).error, row: 0, column: (alone as { column: string }).column });
          else {
            expect(added(stage, r)).toBeNull();
            taken.push(r);
          }
        }
        expect(outcome(() => stage.toBatch({ table: 't' }))).toEqual(outcome(() => rowsToBatch(spatial, taken, { table: 't' })));
      }),
      { numRuns: 200 },
    );
  });
});
