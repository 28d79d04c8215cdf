// alter of geometry columns between WKT (utf8, largeutf8) and WKB (binary, largebinary) through the public API.
import { Binary, Field, Int32, LargeBinary, LargeUtf8, Schema, Utf8, type DataType } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { isEmptyPoint, parseGeometry } from './geo/parse.js';
import { rejected } from './test-util/errors.js';
import { freshStore } from './test-util/store.js';

const geometry = new Map([['class', 'geometry']]);
const schemaWith = (type: DataType, meta: Map<string, string> = geometry) =>
  new Schema([new Field('id', new Int32(), false), new Field('geom', type, true, meta)]);
// the geometry as wkx writes it, so equal geometries compare equal whatever their encoding
const canonical = (v: unknown): string | null => {
  if (v === null) return null;
  const g = parseGeometry(v as string | Uint8Array);
  return isEmptyPoint(g) ? 'POINT EMPTY' : g.toWkt();
};
const wkts = [
  'POINT(5 5)',
  'point ( -170.25   -80.125 )',
  'SRID=4326;POINT(1 2)',
  'POINT Z (1 2 3)',
  'LINESTRING(-5 1, 1 1, 3.000000000000001 0.1)',
  'POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 3, 3 3, 2 2))',
  'MULTIPOLYGON(((8 8, 12 8, 12 12, 8 12, 8 8)), ((20 20, 21 20, 21 21, 20 20)))',
  'MULTIPOINT((1 1), (2 2))',
  'GEOMETRYCOLLECTION(POINT(4 4), LINESTRING(0 0, 1 1))',
  'POINT EMPTY',
  null,
];
const rows = wkts.map((geom, id) => ({ id, geom }));
const square = 'POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))';
// the rows whose geometry lies within the square
const within = [0, 2, 3, 5, 7, 8];

async function table(type: DataType, meta?: Map<string, string>) {
  const store = await freshStore({ partitionRows: 4 });
  const t = store.table('geo');
  await t.create(schemaWith(type, meta));
  await t.insert(rows);
  return t;
}
const ids = async (t: Awaited<ReturnType<typeof table>>, q: string) => (await t.select(q, { cols: ['id'] }).all()).map((r) => r.id).sort((a, b) => Number(a) - Number(b));

describe('alter of a geometry column', () => {
  it('converts WKT to WKB and back through every encoding, keeping the geometries, the nulls and the spatial queries', async () => {
    const t = await table(new Utf8());
    const queries = [`geom intersect "${square}"`, `geom within "${square}"`, `geom ~ "${square}"`, 'geom contains "POINT(10 10)"', 'geom is null'];
    const answers = await Promise.all(queries.map((q) => ids(t, q)));
    expect(answers[0]).toEqual([0, 2, 3, 4, 5, 6, 7, 8]);
    expect(answers[1]).toEqual(within);
    const want = wkts.map(canonical);
    for (const type of [new Binary(), new LargeUtf8(), new LargeBinary(), new Utf8()]) {
      await t.alter(schemaWith(type));
      const got = await t.select().all();
      expect(got.map((r) => r.id)).toEqual(rows.map((r) => r.id));
      const binary = type instanceof Binary || type instanceof LargeBinary;
      for (const r of got) expect(r.geom === null || (binary ? r.geom instanceof Uint8Array : typeof r.geom === 'string')).toBe(true);
      expect(got.map((r) => canonical(r.geom))).toEqual(want);
      for (const [i, q] of queries.entries()) expect(await ids(t, q)).toEqual(answers[i]);
    }
    // after the round trip the column holds the canonical WKT (no SRID prefix, upper case, single spaces)
    expect((await t.select('id == 2').all())[0]!.geom).toBe('POINT(1 2)');
    await t.insert({ id: 20, geom: 'POINT(6 6)' });
    expect(await ids(t, `geom within "${square}"`)).toEqual([...answers[1]!, 20]);
  });

  it('turns a text column into a WKB geometry column, failing on a value that is not WKT with its row and column and changing nothing', async () => {
    const t = await table(new Utf8(), new Map());
    await t.insert([{ id: 30, geom: 'POINT(7 7)' }, { id: 31, geom: 'POLYGON((0 0, 1 1' }, { id: 32, geom: 'POINT(8 8)' }]);
    const before = await t.select().all();
    const e = await rejected('InvalidData', t.alter(schemaWith(new Binary())));
    expect(e).toMatchObject({ column: 'geom', row: rows.length + 1 });
    expect(e.message).toMatch(/row 12, column "geom": geometry is not valid WKT string "POLYGON\(\(0 0, 1 1"/);
    expect(await t.select().all()).toEqual(before);
    const s = (await t.schema())!;
    expect(String(s.fields[1]!.type)).toBe('Utf8');
    expect(s.fields[1]!.metadata.get('class')).toBeUndefined();
    // without the bad row the same alter goes through
    expect(await t.transaction((tx) => tx.delete('id == 31'))).toBe(1);
    await t.alter(schemaWith(new Binary()));
    expect(await ids(t, `geom within "${square}"`)).toEqual([...within, 30, 32]);
  });

  it('refuses a WKT geometry outside the coordinate ranges, and text-to-binary of a column that is not a geometry', async () => {
    const t = await table(new Utf8(), new Map());
    await t.insert({ id: 40, geom: 'POINT(181 0)' });
    const e = await rejected('InvalidData', t.alter(schemaWith(new Binary())));
    expect(e).toMatchObject({ column: 'geom', row: rows.length });
    expect(e.message).toMatch(/longitude 181/);
    const plain = await rejected('InvalidData', t.alter(schemaWith(new Binary(), new Map())));
    expect(plain.message).toMatch(/expected binary, got a utf8 column, which does not convert/);
    expect(String((await t.schema())!.fields[1]!.type)).toBe('Utf8');
  });
});
