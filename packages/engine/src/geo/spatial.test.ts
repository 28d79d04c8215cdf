import { Field, Float64, Int32, Schema, Utf8, Binary } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { freshStore } from '../test-util/store.js';
import { rejected } from '../test-util/errors.js';
import { parseGeometry } from './parse.js';
import { deserialize } from 'flatgeobuf/lib/mjs/geojson.js';

const meta = (klass: string) => new Map([['class', klass]]);
const schema = new Schema([
  new Field('id', new Int32(), false),
  new Field('geom', new Utf8(), true, meta('geometry')),
  new Field('wkb', new Binary(), true, meta('geometry')),
  new Field('lat', new Float64(), true, meta('latitude')),
  new Field('lon', new Float64(), true, meta('longitude')),
]);
const wkb = (wkt: string) => new Uint8Array(parseGeometry(wkt).toWkb());
const rows = [
  { id: 1, geom: 'POINT(5 5)', wkb: wkb('POINT(5 5)'), lat: 5, lon: 5 },
  { id: 2, geom: 'POINT(20 20)', wkb: wkb('POINT(20 20)'), lat: 20, lon: 20 },
  { id: 3, geom: 'LINESTRING(-5 1, 1 1)', wkb: wkb('LINESTRING(-5 1, 1 1)'), lat: 1, lon: -5 },
  { id: 4, geom: 'POLYGON((8 8, 12 8, 12 12, 8 12, 8 8))', wkb: wkb('POLYGON((8 8, 12 8, 12 12, 8 12, 8 8))'), lat: 10, lon: 10 },
  { id: 5, geom: null, wkb: null, lat: null, lon: null },
  { id: 6, geom: 'POINT(9 1)', wkb: wkb('POINT(9 1)'), lat: 1, lon: 9 },
];
const square = 'POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))';
const triangle = 'POLYGON((0 0, 10 0, 0 10, 0 0))';

async function table() {
  const store = await freshStore();
  const t = store.table('geo');
  await t.create(schema);
  await t.insert(rows);
  return t;
}
const ids = async (t: Awaited<ReturnType<typeof table>>, q: string, vars?: Record<string, unknown>) =>
  (await t.select(q, { cols: ['id'], vars }).all()).map((r) => r.id).sort();

describe('spatial filters', () => {
  it('evaluate intersect, within, contains and ~ on WKT, WKB and lat/lon columns', async () => {
    const t = await table();
    for (const col of ['geom', 'wkb']) {
      expect(await ids(t, `${col} intersect "${square}"`)).toEqual([1, 3, 4, 6]);
      expect(await ids(t, `${col} within "${square}"`)).toEqual([1, 6]);
      expect(await ids(t, `${col} ~ "${triangle}"`)).toEqual([1, 3, 4, 6]);
      expect(await ids(t, `${col} intersect "${triangle}"`)).toEqual([1, 3, 6]);
      expect(await ids(t, `${col} contains "POINT(10 10)"`)).toEqual([4]);
      expect(await ids(t, `not (${col} intersect $q)`, { q: square })).toEqual([2]);
    }
    expect(await ids(t, `lat within "${square}"`)).toEqual([1, 6]);
    // (5 5) and (9 1) lie on the triangle's edge: they intersect it but are not within it (JTS)
    expect(await ids(t, `lat within "${triangle}"`)).toEqual([]);
    expect(await ids(t, `lon intersect "${triangle}"`)).toEqual([1, 6]);
    expect(await ids(t, `lon ~ "${square}" and id > 1`)).toEqual([4, 6]);
    expect(await ids(t, `lon intersect "${square}" or id == 2`)).toEqual([1, 2, 4, 6]);
  });

  it('rejects bad operands and columns with the token', async () => {
    const t = await table();
    const e1 = await rejected('QueryType', () => t.select('geom intersect "POLYGON((0 0, 1"').all());
    expect(e1.message).toMatch(/not valid WKT/);
    expect(e1.token).toBe('"POLYGON((0 0, 1"');
    const e2 = await rejected('QueryType', () => t.select('id within "POINT(1 1)"').all());
    expect(e2).toMatchObject({ column: 'id', position: 0 });
    await rejected('QuerySyntax', () => t.select('geom within 5').all());
    const bowtie = 'POLYGON((0 0, 10 10, 10 0, 0 10, 0 0))';
    expect((await rejected('QueryType', () => t.select('geom within $q', { vars: { q: bowtie } }).all())).message).toMatch(/not a valid geometry: Self-intersection/);
    await rejected('QueryType', () => t.select('geom within $g', { vars: { g: 5 } }).all());
  });

  it('rejects invalid geometry and coordinates at insert with row and column, storing nothing', async () => {
    const t = await table();
    const bad = [{ ...rows[0], geom: 'POINT(1 2)' }, { ...rows[0], geom: 'POLYGON((0 0, 1 1' }];
    const e1 = await rejected('InvalidData', () => t.insert(bad));
    expect(e1).toMatchObject({ row: 1, column: 'geom' });
    const e2 = await rejected('InvalidData', () => t.insert([{ ...rows[0], wkb: wkb('POINT(181 0)') }]));
    expect(e2).toMatchObject({ row: 0, column: 'wkb' });
    const e3 = await rejected('InvalidData', () => t.insert([rows[0]!, { ...rows[0], lat: 91 }]));
    expect(e3).toMatchObject({ row: 1, column: 'lat' });
    expect(await t.select().count()).toBe(rows.length);
  });


  it('store empty geometries (WKT EMPTY, WKB NaN point) as matching no spatial filter, not as POINT(0 0)', async () => {
    const t = await table();
    const empties = ['POINT EMPTY', 'POLYGON EMPTY', 'GEOMETRYCOLLECTION(POINT EMPTY, POINT(30 30))', 'LINESTRING EMPTY'];
    await t.insert(empties.map((geom, i) => ({ id: 10 + i, geom, wkb: wkb(geom), lat: null, lon: null })));
    const origin = 'POLYGON((-1 -1, 1 -1, 1 1, -1 1, -1 -1))';
    for (const col of ['geom', 'wkb']) {
      expect(await ids(t, `${col} intersect "${origin}" and id >= 10`)).toEqual([]);
      expect(await ids(t, `${col} ~ "${origin}" and id >= 10`)).toEqual([]);
      expect(await ids(t, `${col} intersect "POINT(30 30)"`)).toEqual([12]);
    }
  });
});

describe('export', () => {
  it('streams GeoJSON features and a FlatGeobuf file that the flatgeobuf reader reads back', async () => {
    const t = await table();
    const features = [];
    for await (const f of t.select('id != 3', { cols: ['id', 'geom'] }).geojson()) features.push(f);
    expect(features.map((f) => f.properties.id)).toEqual([1, 2, 4, 5, 6]);
    expect(features[0]!.geometry).toEqual({ type: 'Point', coordinates: [5, 5] });
    expect(features[3]!.geometry).toBeNull();
    const chunks: Uint8Array[] = [];
    for await (const c of t.select(`geom intersect "${square}"`).flatgeobuf()) chunks.push(c);
    const bytes = Buffer.concat(chunks);
    const back = [];
    for await (const f of deserialize(new Uint8Array(bytes))) back.push(f);
    expect(back.map((f) => f.properties?.id)).toEqual([1, 3, 4, 6]);
    expect(back.map((f) => f.geometry.type)).toEqual(['Point', 'LineString', 'Polygon', 'Point']);
    expect(back[2]!.geometry).toMatchObject({ coordinates: [[[8, 8], [12, 8], [12, 12], [8, 12], [8, 8]]] });
    const points = [];
    for await (const c of t.select('id < 3', { cols: ['id', 'lat', 'lon'] }).flatgeobuf()) points.push(c);
    const read = [];
    for await (const f of deserialize(new Uint8Array(Buffer.concat(points)))) read.push(f);
    expect(read.map((f) => (f.geometry as { coordinates: unknown }).coordinates)).toEqual([[5, 5], [20, 20]]);
    await rejected('InvalidArgument', async () => {
      for await (const _ of t.select(undefined, { cols: ['id'] }).geojson());
    });
  });
});

describe('point boxes', () => {
  it('store xmax/ymax of a points-only partition as the xmin/ymin bytes, and still filter right', async () => {
    const t = await table();
    const store = await freshStore();
    const p = store.table('pts');
    await p.create(schema);
    await p.insert(rows.filter((r) => r.geom === null || r.geom.startsWith('POINT')));
    for (const col of ['geom', 'wkb']) {
      expect(await ids(p as typeof t, `${col} ~ "${square}"`)).toEqual([1, 6]);
      expect(await ids(p as typeof t, `${col} within "${square}"`)).toEqual([1, 6]);
      expect(await ids(p as typeof t, `not (${col} ~ "${square}")`)).toEqual([2]);
    }
  });

  it('do not treat a partition with a degenerate line (a point box, not a Point) as points only', async () => {
    const store = await freshStore();
    const p = store.table('deg');
    await p.create(schema);
    // jsts: LINESTRING(1 1, 1 1) does not intersect a line through (1 1), where POINT(1 1) would
    const line = 'LINESTRING(1 1, 1 1)';
    await p.insert([rows[0]!, { id: 7, geom: line, wkb: wkb(line), lat: 1, lon: 1 }]);
    for (const col of ['geom', 'wkb']) {
      expect(await ids(p as Awaited<ReturnType<typeof table>>, `${col} intersect "LINESTRING(0 0, 6 6)"`)).toEqual([1]);
      expect(await ids(p as Awaited<ReturnType<typeof table>>, `${col} contains "POINT(5 5)"`)).toEqual([1]);
    }
  });
});
