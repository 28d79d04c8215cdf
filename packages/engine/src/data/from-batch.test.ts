import * as arrow from 'apache-arrow';
import { type Data, type DataType, Field, RecordBatch, Schema, Table, makeData, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { normalizeSchema } from '../schema/validate.js';
import { toRecordBatches } from './convert.js';
import { batchToRows } from './rows.js';
import { thrown } from '../test-util/errors.js';

const schemaOf = (...fields: [string, DataType, boolean?][]) => normalizeSchema(new Schema(fields.map(([n, t, nl]) => new Field(n, t, nl ?? true))));
const vec = (values: unknown[], type: DataType) => vectorFromArray(values as never[], type as never).data[0]! as Data;
const ints64 = (type: DataType, values: bigint[]) => makeData({ type: type as arrow.Int64, data: BigInt64Array.from(values) }) as Data;
const batch = (cols: Record<string, Data>) => new RecordBatch(cols);

const invalid = (f: () => unknown) => thrown('InvalidData', f);

describe('batches whose columns match', () => {
  const schema = normalizeSchema(
    new Schema([new Field('id', new arrow.Int64(), false, new Map([['index', 'yes']])), new Field('name', new arrow.Utf8(), true), new Field('ok', new arrow.Bool(), true)]),
  );
  it('pass through zero-copy, relabelled with the table schema', () => {
    const input = batch({ ok: vec([true, null], new arrow.Bool()), id: ints64(new arrow.Int64(), [1n, 2n]), name: vec(['a', 'b'], new arrow.Utf8()) });
    const [out] = toRecordBatches(schema, input);
    expect(out!.schema.fields.map((f) => [f.name, f.nullable, Object.fromEntries(f.metadata)])).toEqual([
      ['id', false, { index: 'true' }],
      ['name', true, {}],
      ['ok', true, {}],
    ]);
    for (const name of ['id', 'name', 'ok']) {
      const before = input.getChild(name)!.data[0]!;
      const after = out!.getChild(name)!.data[0]!;
      expect(after.values).toBe(before.values);
      expect(after.offset).toBe(0);
    }
    expect(out!.getChild('name')!.data[0]!.valueOffsets).toBe(input.getChild('name')!.data[0]!.valueOffsets);
  });
  it('fill missing nullable columns with nulls and reject missing non-nullable ones', () => {
    const [out] = toRecordBatches(schema, batch({ id: ints64(new arrow.Int64(), [1n, 2n]) }));
    expect(batchToRows(out!)).toEqual([
      { id: 1n, name: null, ok: null },
      { id: 2n, name: null, ok: null },
    ]);
    expect(invalid(() => toRecordBatches(schema, batch({ name: vec(['a'], new arrow.Utf8()) })))).toMatchObject({
      row: 0,
      column: 'id',
      message: 'row 0, column "id": the column is missing and not nullable',
    });
  });
  it('reject nulls in non-nullable columns at the first null row', () => {
    const id = vec([1n, 2n, null, null], new arrow.Int64());
    expect(invalid(() => toRecordBatches(schema, batch({ id })))).toMatchObject({ row: 2, column: 'id', message: 'row 2, column "id": null in a non-nullable column' });
    const nulls = batch({ id: makeData({ type: new arrow.Null(), length: 3 }) as Data });
    expect(invalid(() => toRecordBatches(schema, nulls))).toMatchObject({ row: 0, column: 'id' });
  });
  it('reject unknown and duplicate columns', () => {
    const extra = batch({ id: ints64(new arrow.Int64(), [1n]), depth: vec([1], new arrow.Float64()) });
    expect(invalid(() => toRecordBatches(schema, extra, { table: 'ctd' }))).toMatchObject({
      table: 'ctd',
      column: 'depth',
      message: `column "depth": unknown column "depth"; the table's columns are id, name, ok`,
    });
    const id = ints64(new arrow.Int64(), [1n]);
    const twice = new RecordBatch(
      new Schema([new Field('id', id.type), new Field('id', id.type)]),
      makeData({ type: new arrow.Struct([new Field('id', id.type), new Field('id', id.type)]), length: 1, children: [id, id] }),
    );
    expect(invalid(() => toRecordBatches(schema, twice)).message).toBe('column "id": the batch has two columns with this name');
  });
});

describe('tables', () => {
  const schema = schemaOf(['id', new arrow.Int32(), false], ['name', new arrow.Utf8()], ['ok', new arrow.Bool()], ['t', new arrow.TimestampMicrosecond()]);
  const rows = Array.from({ length: 21 }, (_, i) => ({ id: i, name: i % 3 ? `n${i}é` : null, ok: i % 4 === 1 ? null : i % 2 === 0, t: new Date(i * 1000) }));
  const whole = toRecordBatches(schema, rows)[0]!;
  it('normalise sliced columns to offset 0 (bits shifted, offsets rebased)', () => {
    const sliced = new Table(whole).slice(5, 19);
    const [out] = toRecordBatches(schema, sliced);
    for (const child of out!.data.children) expect(child.offset).toBe(0);
    expect((out!.getChild('name')!.data[0]!.valueOffsets as Int32Array)[0]).toBe(0);
    expect(batchToRows(out!)).toEqual(batchToRows(whole).slice(5, 19));
  });
  it('keep the batches as they come, drop empty ones and number rows across batches', () => {
    const table = new Table([whole.slice(0, 10), whole.slice(10, 10), whole.slice(10, 21)]);
    const out = toRecordBatches(schema, table);
    expect(out.map((b) => b.numRows)).toEqual([10, 11]);
    const bad = batch({ id: vec([1, 2, null], new arrow.Int32()) });
    const withNull = new Table([batch({ id: vec([1, 2, 3], new arrow.Int32()) }), bad]);
    expect(invalid(() => toRecordBatches(schema, withNull))).toMatchObject({ row: 5, column: 'id' });
  });
});

describe('toRecordBatches', () => {
  it('rejects inputs that are not rows, batches or tables', () => {
    const schema = schemaOf(['a', new arrow.Int32()]);
    for (const input of [5, 'rows', null, undefined]) {
      expect(invalid(() => toRecordBatches(schema, input as never)).message).toMatch(
        /^insert expects a row object, an array of row objects, an Arrow RecordBatch or an Arrow Table; got /,
      );
    }
    const b = toRecordBatches(schema, [{ a: 1 }])[0]!;
    expect(invalid(() => toRecordBatches(schema, [b] as never)).message).toBe(
      'row 0: expected a row object, got RecordBatch object; pass several batches as one Arrow Table',
    );
  });
});
