// Property: random typed tables written as Parquet (parquet-wasm, any codec) or as CSV (quoted
// text with commas, quotes and newlines; empty fields as nulls) ingest into a new table whose
// select() returns exactly the input rows. CSV keeps only its simple types (int64, float64, bool,
// string), so its tables are drawn from those.
import { Bool, type DataType, Field, Float64, Int32, Int64, RecordBatch, Schema, Struct, Table as ArrowTable, TimestampMillisecond, Utf8, makeData, tableToIPC, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import * as pw from 'parquet-wasm';
import { describe, expect, it } from 'vitest';
import { freshStore } from '../test-util/store.js';

type Value = bigint | number | boolean | string | Date | null;
interface Column {
  readonly type: DataType;
  readonly values: Value[];
}

const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 5 });
const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d));
const text = fc.string({ unit: 'grapheme', maxLength: 12 });

// one column of `n` values of a type drawn from `kinds`
function column(n: number, kinds: readonly string[]): fc.Arbitrary<Column> {
  const of = (type: DataType, a: fc.Arbitrary<Value>) => fc.array(nullable(a), { minLength: n, maxLength: n }).map((values) => ({ type, values }));
  const all: Record<string, () => fc.Arbitrary<Column>> = {
    int64: () => of(new Int64(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
    float64: () => of(new Float64(), fc.oneof(finite, fc.constantFrom(Number.NaN, Infinity, -Infinity))),
    bool: () => of(new Bool(), fc.boolean()),
    utf8: () => of(new Utf8(), text),
    int32: () => of(new Int32(), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
    timestamp: () => of(new TimestampMillisecond(), fc.date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true })),
  };
  return fc.constantFrom(...kinds).chain((k) => all[k]!());
}

const table = (kinds: readonly string[]) =>
  fc.integer({ min: 1, max: 25 }).chain((n) => fc.array(column(n, kinds), { minLength: 1, maxLength: 5 }));

const rowsOf = (columns: readonly Column[]) =>
  columns[0]!.values.map((_, i): Record<string, Value> => Object.fromEntries(columns.map((c, k) => [`c${k}`, c.values[i] as Value])));

describe('ingest round trips (property)', () => {
  it('Parquet written by parquet-wasm: types and values kept', async () => {
    const store = await freshStore();
    let run = 0;
    const codecs = [pw.Compression.UNCOMPRESSED, pw.Compression.SNAPPY, pw.Compression.ZSTD, pw.Compression.GZIP];
    await fc.assert(
      fc.asyncProperty(table(['int64', 'float64', 'bool', 'utf8', 'int32', 'timestamp']), fc.constantFrom(...codecs), async (columns, codec) => {
        const t = store.table(`p${run++}`);
        await t.raw.ingest(await t.raw.upload('t.parquet', parquetOf(columns, codec)));
        expect((await t.schema())!.fields.map((f) => String(f.type))).toEqual(columns.map((c) => String(c.type)));
        expect(await t.select().all()).toEqual(rowsOf(columns));
      }),
      { numRuns: 10 },
    );
  });

  it('CSV: the simple types inferred, values kept (text quoted, empty fields null)', async () => {
    const store = await freshStore();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(table(['int64', 'float64', 'bool', 'utf8']), fc.constantFrom('\n', '\r\n'), fc.boolean(), async (columns, eol, bom) => {
        // what CSV can say: text that reads as a number or bool is one (so text here starts with a
        // letter); '' is null; a column without values is text
        const expected = columns.map((c) => (c.type instanceof Utf8 ? { ...c, values: c.values.map((v) => (v === null ? null : `s${String(v)}`)) } : c));
        const typed = expected.map((c) => (c.values.every((v) => v === null) ? { type: new Utf8(), values: c.values } : c));
        const t = store.table(`c${run++}`);
        await t.raw.ingest(await t.raw.upload('t.csv', new TextEncoder().encode(csvOf(expected, eol, bom))));
        expect((await t.schema())!.fields.map((f) => String(f.type))).toEqual(typed.map((c) => String(c.type)));
        // a lone null is a blank line, which CSV readers skip
        const rows = rowsOf(typed).filter((r) => Object.values(r).some((v) => v !== null) || typed.length > 1);
        expect(await t.select().all()).toEqual(rows);
      }),
      { numRuns: 25 },
    );
  });
});

function parquetOf(columns: readonly Column[], codec: pw.Compression): Uint8Array {
  const fields = columns.map((c, k) => new Field(`c${k}`, c.type, true));
  const n = columns[0]!.values.length;
  const children = columns.map((c) => vectorFromArray(c.values as never[], c.type).data[0]!);
  const batch = new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: n, nullCount: 0, children }));
  const props = new pw.WriterPropertiesBuilder().setCompression(codec).setMaxRowGroupSize(7).build();
  return pw.writeParquet(pw.Table.fromIPCStream(tableToIPC(new ArrowTable([batch]), 'stream')), props);
}

function csvOf(columns: readonly Column[], eol: string, bom: boolean): string {
  const field = (v: Value): string => {
    if (v === null) return '';
    if (typeof v === 'string') return `"${v.replaceAll('"', '""')}"`;
    // an integral float keeps a decimal point, or it would read back as int64
    if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e21 ? v.toFixed(1) : String(v);
    return String(v);
  };
  const lines = [columns.map((_, k) => `c${k}`).join(','), ...rowsOf(columns).map((r) => Object.values(r).map(field).join(','))];
  return `${bom ? '\ufeff' : ''}${lines.join(eol)}${eol}`;
}
