import * as arrow from 'apache-arrow';
import { type DataType, Field, Schema, tableToIPC } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zeroed } from '../write/shared-pool.js';
import { normalizeSchema } from '../schema/validate.js';
import { toRecordBatches } from './convert.js';
import { batchToRows } from './rows.js';
import { thrown } from '../test-util/errors.js';

const schemaOf = (...fields: [string, DataType, boolean?][]) => normalizeSchema(new Schema(fields.map(([n, t, nl]) => new Field(n, t, nl ?? true))));

const invalid = (f: () => unknown) => thrown('InvalidData', f);

describe('rows', () => {
  const schema = schemaOf(['id', new arrow.Int32(), false], ['name', new arrow.Utf8()], ['depth', new arrow.Float64()]);
  it('fills missing and null values of nullable columns with nulls', () => {
    const [batch] = toRecordBatches(schema, [{ id: 1 }, { id: 2, name: null, depth: undefined }, { id: 3, name: 'a', depth: 1 }]);
    expect(Array.from(batch!.getChild('name')!)).toEqual([null, null, 'a']);
    expect(batch!.getChild('depth')!.nullCount).toBe(2);
  });
  it('rejects missing and null values of non-nullable columns', () => {
    expect(invalid(() => toRecordBatches(schema, [{ id: 1 }, { name: 'x' }]))).toMatchObject({
      row: 1,
      column: 'id',
      message: 'row 1, column "id": missing value in a non-nullable column',
    });
    expect(invalid(() => toRecordBatches(schema, [{ id: null }])).message).toBe('row 0, column "id": null in a non-nullable column');
  });
  it('rejects unknown keys naming them', () => {
    const e = invalid(() => toRecordBatches(schema, [{ id: 1 }, { id: 2, Depth: 3 }], { table: 'ctd' }));
    expect(e).toMatchObject({ table: 'ctd', row: 1, column: 'Depth', value: 3 });
    expect(e.message).toBe(`row 1, column "Depth": unknown column "Depth"; the table's columns are id, name, depth`);
    // also when the row has the same number of keys as a previous good row
    expect(invalid(() => toRecordBatches(schema, [{ id: 1, name: 'a' }, { id: 1, nmae: 'a' }]))).toMatchObject({ row: 1, column: 'nmae' });
  });
  it('reports the lowest bad row, the first column on ties', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: 'n', depth: i }));
    rows[4000] = { id: 1.5, name: 'n', depth: 0 };
    rows[3000] = { id: 1, name: 'n', depth: 'deep' as unknown as number };
    rows[3500] = { id: 1, name: 'n', depth: 1, x: 1 } as never;
    expect(invalid(() => toRecordBatches(schema, rows))).toMatchObject({ row: 3000, column: 'depth' });
    rows[3000] = { id: 'one' as unknown as number, name: 5 as unknown as string, depth: 'deep' as unknown as number };
    expect(invalid(() => toRecordBatches(schema, rows))).toMatchObject({ row: 3000, column: 'id' });
  });
  it('rejects elements that are not row objects', () => {
    expect(invalid(() => toRecordBatches(schema, [{ id: 1 }, 5 as never])).message).toBe('row 1: expected a row object, got number 5');
    expect(invalid(() => toRecordBatches(schema, [[1] as never])).message).toBe('row 0: expected a row object, got array of length 1');
    expect(invalid(() => toRecordBatches(schema, [{ id: 1 }, new Date(0) as never])).message).toBe('row 1: expected a row object, got Date 1970-01-01T00:00:00.000Z');
    expect(invalid(() => toRecordBatches(schema, [new Map([['id', 1]]) as never])).message).toBe('row 0: expected a row object, got Map object');
  });
  it('reads columns named like Object.prototype members as own properties only', () => {
    const s = schemaOf(['constructor', new arrow.Utf8()], ['__proto__', new arrow.Int32()]);
    const rows = [JSON.parse('{"constructor": "c", "__proto__": 5}'), {}];
    const [batch] = toRecordBatches(s, rows);
    expect(batch!.getChild('constructor')!.toArray()).toEqual(['c', null]);
    expect(Array.from(batch!.getChild('__proto__')!)).toEqual([5, null]);
  });
  it('accepts one row object, class instances and null-prototype rows', () => {
    class Obs {
      constructor(readonly id: number) {}
    }
    const bare = Object.assign(Object.create(null) as object, { id: 3 });
    expect(toRecordBatches(schema, { id: 1 })[0]!.numRows).toBe(1);
    expect(Array.from(toRecordBatches(schema, [new Obs(2), bare] as never)[0]!.getChild('id')!)).toEqual([2, 3]);
    expect(toRecordBatches(schema, [])).toEqual([]);
  });
  it('produces a batch of exactly the schema', () => {
    const s = normalizeSchema(new Schema([new Field('t', new arrow.TimestampMicrosecond('UTC'), false, new Map([['index', 'true']]))], new Map([['k', 'v']])));
    const [batch] = toRecordBatches(s, [{ t: new Date(0) }]);
    expect(batch!.schema.fields.map((f) => [f.name, f.type, f.nullable, Object.fromEntries(f.metadata)])).toEqual([
      ['t', s.fields[0]!.type, false, { index: 'true' }],
    ]);
    expect(Object.fromEntries(batch!.schema.metadata)).toEqual({ k: 'v' });
  });
  it('converts many blocks of rows of changing shapes', () => {
    const rows = Array.from({ length: 5000 }, (_, i) =>
      i % 3 === 0 ? { id: i, name: `r${i}`, depth: i / 2 } : i % 3 === 1 ? { depth: null, id: i } : { name: 'é', id: i },
    );
    const back = batchToRows(toRecordBatches(schema, rows)[0]!);
    expect(back).toEqual(rows.map((r) => ({ id: r.id, name: r.name ?? null, depth: r.depth ?? null })));
  });
});

describe('rows into pooled memory', () => {
  // every kind of column a row converts into, nullable, and a few not
  const schema = schemaOf(
    ['i8', new arrow.Int8()],
    ['u32', new arrow.Uint32()],
    ['i64', new arrow.Int64(), false],
    ['u64', new arrow.Uint64()],
    ['f32', new arrow.Float32()],
    ['f64', new arrow.Float64()],
    ['ok', new arrow.Bool()],
    ['name', new arrow.Utf8()],
    ['note', new arrow.LargeUtf8()],
    ['blob', new arrow.Binary()],
    ['at', new arrow.TimestampMillisecond()],
    ['us', new arrow.TimestampMicrosecond()],
    ['day', new arrow.DateDay()],
    ['ms', new arrow.DateMillisecond()],
  );
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 4 });
  const date = fc.date({ min: new Date(-1e12), max: new Date(4e12), noInvalidDate: true });
  const day = fc.integer({ min: -20_000, max: 40_000 }).map((d) => new Date(d * 86_400_000));
  const row = fc.record({
    i8: maybe(fc.integer({ min: -128, max: 127 })),
    u32: maybe(fc.nat()),
    i64: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    u64: maybe(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })),
    f32: maybe(fc.float({ noDefaultInfinity: true })),
    f64: maybe(fc.double()),
    ok: maybe(fc.boolean()),
    name: maybe(fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 8 }))),
    note: maybe(fc.string({ maxLength: 40 })),
    blob: maybe(fc.uint8Array({ maxLength: 20 })),
    at: maybe(date),
    us: maybe(date),
    day: maybe(day),
    ms: maybe(day),
  });
  // the buffers a pool hands out again: shared, holding what the last user left, zeroed as asked
  const dirtyPool = zeroed((bytes) => {
    const buffer = new SharedArrayBuffer(bytes + 64);
    new Uint8Array(buffer).fill(0xab);
    return buffer;
  });

  it('convert as into the heap, byte for byte, with every buffer in the pool memory', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 300 }), (rows) => {
        const [heap] = toRecordBatches(schema, rows);
        const [pooled] = toRecordBatches(schema, rows, {}, dirtyPool);
        expect(tableToIPC(new arrow.Table([pooled!]))).toEqual(tableToIPC(new arrow.Table([heap!])));
        for (const child of pooled!.data.children) {
          for (const b of [child.values, child.valueOffsets, child.nullBitmap]) if (b) expect(b.buffer).toBeInstanceOf(SharedArrayBuffer);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('grows string data past the first block in the pool too', () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ i64: BigInt(i), name: 'x'.repeat(50 + i), note: 'é'.repeat(30) }));
    const [heap] = toRecordBatches(schema, rows);
    const [pooled] = toRecordBatches(schema, rows, {}, dirtyPool);
    expect(batchToRows(pooled!)).toEqual(batchToRows(heap!));
    expect(pooled!.getChild('name')!.data[0]!.values.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});
