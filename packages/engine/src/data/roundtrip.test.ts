import * as arrow from 'apache-arrow';
import { type DataType, Field, Schema, Table } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeSchema } from '../schema/validate.js';
import { toRecordBatches } from './convert.js';
import { batchToRows } from './rows.js';

// Each supported type with an arbitrary of [value as inserted, value as read back]
type Column = { type: DataType; value: fc.Arbitrary<[unknown, unknown]> };
const same = <T>(a: fc.Arbitrary<T>) => a.map((v): [unknown, unknown] => [v, v]);
const int = (min: number, max: number) =>
  fc.oneof(same(fc.integer({ min, max })), fc.integer({ min, max }).map((v): [unknown, unknown] => [BigInt(v), v]));
const int64 = (min: bigint, max: bigint) =>
  fc.oneof(
    same(fc.bigInt({ min, max })),
    fc.bigInt({ min, max }).filter((b) => Number.isSafeInteger(Number(b))).map((b): [unknown, unknown] => [Number(b), b]),
  );
// a point in time as a Date, an ISO string or epoch milliseconds; read back as a Date
const instant = (maxMs: number, dayMs = 1) =>
  fc.integer({ min: -Math.floor(maxMs / dayMs), max: Math.floor(maxMs / dayMs) }).chain((k) => {
    const ms = k * dayMs;
    return fc.constantFrom<[unknown, unknown]>([new Date(ms), new Date(ms)], [new Date(ms).toISOString(), new Date(ms)], [ms, new Date(ms)]);
  });
const DATE_MAX = 8.64e15;
const NS_MAX = 9.2e12;
const columns: Column[] = [
  { type: new arrow.Int8(), value: int(-128, 127) },
  { type: new arrow.Int16(), value: int(-32768, 32767) },
  { type: new arrow.Int32(), value: int(-(2 ** 31), 2 ** 31 - 1) },
  { type: new arrow.Int64(), value: int64(-(2n ** 63n), 2n ** 63n - 1n) },
  { type: new arrow.Uint8(), value: int(0, 255) },
  { type: new arrow.Uint16(), value: int(0, 65535) },
  { type: new arrow.Uint32(), value: int(0, 2 ** 32 - 1) },
  { type: new arrow.Uint64(), value: int64(0n, 2n ** 64n - 1n) },
  { type: new arrow.Float32(), value: same(fc.float()) },
  { type: new arrow.Float64(), value: same(fc.double()) },
  { type: new arrow.Bool(), value: same(fc.boolean()) },
  { type: new arrow.Utf8(), value: same(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }))) },
  { type: new arrow.LargeUtf8(), value: same(fc.string({ unit: 'grapheme' })) },
  { type: new arrow.Binary(), value: same(fc.uint8Array({ maxLength: 12 })) },
  { type: new arrow.LargeBinary(), value: same(fc.uint8Array({ maxLength: 12 })) },
  { type: new arrow.DateDay(), value: instant(DATE_MAX, 86_400_000) },
  { type: new arrow.DateMillisecond(), value: instant(DATE_MAX, 86_400_000) },
  { type: new arrow.TimestampSecond(), value: instant(DATE_MAX, 1000) },
  { type: new arrow.TimestampMillisecond('UTC'), value: instant(DATE_MAX) },
  { type: new arrow.TimestampMicrosecond(), value: instant(DATE_MAX) },
  { type: new arrow.TimestampNanosecond('Asia/Tokyo'), value: instant(NS_MAX) },
];

const names = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf'));
// a schema and rows of [inserted row, expected row]; a nullable value may be null or left out
const table = fc
  .uniqueArray(fc.record({ name: names, column: fc.constantFrom(...columns), nullable: fc.boolean() }), { minLength: 1, maxLength: 8, selector: (f) => f.name })
  .chain((fields) => {
    const cell = (f: (typeof fields)[number]) =>
      f.nullable ? fc.oneof({ weight: 3, arbitrary: f.column.value }, fc.constantFrom<[unknown, unknown]>([null, null], [undefined, null])) : f.column.value;
    const row = fc.tuple(...fields.map(cell)).map((cells) => {
      const input: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      fields.forEach((f, i) => {
        const [given, back] = cells[i]!;
        if (given !== undefined) Object.defineProperty(input, f.name, { value: given, enumerable: true, writable: true, configurable: true });
        Object.defineProperty(expected, f.name, { value: back, enumerable: true, writable: true, configurable: true });
      });
      return { input, expected };
    });
    const schema = normalizeSchema(new Schema(fields.map((f) => new Field(f.name, f.column.type, f.nullable))));
    return fc.record({ schema: fc.constant(schema), rows: fc.array(row, { maxLength: 40 }) });
  });

describe('insert round trip', () => {
  it('rows → batches → rows gives the same values', () => {
    fc.assert(
      fc.property(table, ({ schema, rows }) => {
        const batches = toRecordBatches(schema, rows.map((r) => r.input));
        expect(batches.length).toBe(rows.length === 0 ? 0 : 1);
        const back = batches.flatMap(batchToRows);
        expect(back).toEqual(rows.map((r) => r.expected));
      }),
      { numRuns: 300 },
    );
  });
  it('a batch passes through unchanged, and a sliced table converts to the same rows', () => {
    fc.assert(
      fc.property(table, fc.nat(), fc.nat(), ({ schema, rows }, a, b) => {
        if (rows.length === 0) return;
        const [batch] = toRecordBatches(schema, rows.map((r) => r.input));
        const [again] = toRecordBatches(schema, batch!);
        again!.data.children.forEach((c, i) => expect(c.values).toBe(batch!.data.children[i]!.values));
        const from = a % rows.length;
        const to = from + (b % (rows.length - from + 1));
        const sliced = toRecordBatches(schema, new Table(batch!).slice(from, to));
        for (const out of sliced) for (const c of out.data.children) expect(c.offset).toBe(0);
        expect(sliced.flatMap(batchToRows)).toEqual(rows.slice(from, to).map((r) => r.expected));
      }),
      { numRuns: 200 },
    );
  });
});
