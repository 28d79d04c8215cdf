import * as arrow from 'apache-arrow';
import { type DataType, Field, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
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
