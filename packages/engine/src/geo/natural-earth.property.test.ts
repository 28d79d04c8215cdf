// Property tests: spatial filters through partitions, the R-tree, zone maps and kernels give exactly
// the rows of a brute-force jsts evaluation; `~` is a superset of `intersect`. Real polygons from
// Natural Earth (world-atlas 110m countries: multipolygons, holes, coastlines).
import { createRequire } from 'node:module';
import { Field, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import fc from 'fast-check';
import { feature } from 'topojson-client';
import wkx from 'wkx';
import { describe, expect, it } from 'vitest';
import { rejected } from '../test-util/errors.js';
import { freshStore } from '../test-util/store.js';
import { bboxOf, type Geometry, readGeometry, topologyProblem } from './parse.js';
import { geoTest } from './predicate.js';

const require = createRequire(import.meta.url);
const topo = require('world-atlas/countries-110m.json');
const features = (feature(topo, topo.objects.countries) as unknown as { features: { geometry: object | null; properties: { name: string } }[] }).features;
const countries = features
  .flatMap((f) => {
    if (!f.geometry) return [];
    const wkt = wkx.Geometry.parseGeoJSON(f.geometry).toWkt();
    try {
      const geometry = readGeometry(wkt);
      // the few 110m shapes that are not valid polygons are query operands the engine rejects (tested below)
      return topologyProblem(geometry) ? [] : [{ name: f.properties.name, wkt, geometry }];
    } catch {
      return []; // a coordinate outside [-180, 180] × [-90, 90]
    }
  });

const schema = new Schema([
  new Field('id', new Int32(), false),
  new Field('geom', new Utf8(), true, new Map([['class', 'geometry']])),
  new Field('lat', new Float64(), true, new Map([['class', 'latitude']])),
  new Field('lon', new Float64(), true, new Map([['class', 'longitude']])),
]);

// points anywhere, and points jittered around country vertices (coastlines, borders, holes)
const near = fc.tuple(fc.integer({ min: 0, max: countries.length - 1 }), fc.nat(), fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.double({ min: -0.5, max: 0.5, noNaN: true }));
const point = fc.oneof(
  fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true })),
  near.map(([c, v, dx, dy]) => {
    const coords = (countries[c]!.geometry as unknown as { getCoordinates(): { x: number; y: number }[] }).getCoordinates();
    const at = coords[v % coords.length]!;
    return [clamp(at.x + dx, 180), clamp(at.y + dy, 90)] as [number, number];
  }),
);
const clamp = (v: number, m: number) => Math.max(-m, Math.min(m, v));
// a row: a point (as lat/lon and as WKT), a small box around it, or null
const row = fc.tuple(point, fc.constantFrom('point', 'box', 'null'), fc.double({ min: 0.01, max: 3, noNaN: true }));

function wktOf([[x, y], kind, r]: [[number, number], string, number]): string | null {
  if (kind === 'null') return null;
  if (kind === 'point') return `POINT(${x} ${y})`;
  const [x0, x1, y0, y1] = [clamp(x - r, 180), clamp(x + r, 180), clamp(y - r, 90), clamp(y + r, 90)];
  return `POLYGON((${x0} ${y0}, ${x1} ${y0}, ${x1} ${y1}, ${x0} ${y1}, ${x0} ${y0}))`;
}

function boxesMeet(a: readonly number[], b: readonly number[]): boolean {
  return a[0]! <= b[2]! && a[2]! >= b[0]! && a[1]! <= b[3]! && a[3]! >= b[1]!;
}

describe('spatial filters on Natural Earth polygons', () => {
  it('rejects an invalid polygon as operand (QueryType) and reports one stored as a row (InvalidData)', async () => {
    const russia = wkx.Geometry.parseGeoJSON(features.find((f) => f.properties.name === 'Russia')!.geometry!).toWkt();
    const store = await freshStore();
    const t = store.table('shapes');
    await t.create(schema);
    await t.insert([{ id: 1, geom: russia, lat: null, lon: null }]);
    const e1 = await rejected('QueryType', () => t.select('lat within $q', { vars: { q: russia } }).all());
    expect(e1.message).toMatch(/not a valid geometry: Self-intersection/);
    // jsts throws a TopologyException for this point against the self-intersecting shape
    const e2 = await rejected('InvalidData', () => t.select('geom intersect "POINT(43.75303753037531 41.151753704746554)"').all());
    expect(e2.message).toMatch(/stored geometry that is not valid \(Self-intersection/);
  });

  it('has real multipolygons and polygons with holes to test', () => {
    expect(countries.length).toBeGreaterThan(150);
    expect(countries.some((c) => (c.geometry as unknown as { getGeometryType(): string }).getGeometryType() === 'MultiPolygon')).toBe(true);
    expect(countries.some((c) => /\), ?\(/.test(c.wkt.replace(/^MULTIPOLYGON/, '')) && (c.geometry as unknown as { getGeometryType(): string }).getGeometryType() === 'Polygon')).toBe(true);
  });

  it('index path == brute force for intersect/within/contains, and ~ ⊇ intersect', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 120 }), fc.integer({ min: 0, max: countries.length - 1 }), async (rows, c) => {
        const store = await freshStore({ partitionRows: 16 });
        const t = store.table('pts');
        await t.create(schema);
        const data = rows.map((r, id) => ({ id, geom: wktOf(r), lat: r[1] === 'null' ? null : r[0][1], lon: r[1] === 'null' ? null : r[0][0] }));
        for (let i = 0; i < data.length; i += 20) await t.insert(data.slice(i, i + 20)); // several partitions
        const country = countries[c]!;
        const ids = async (q: string) => (await t.select(q, { cols: ['id'], vars: { q: country.wkt } }).all()).map((r) => r.id as number).sort((a, b) => a - b);
        const qbox = bboxOf(country.geometry)!;
        for (const op of ['intersect', 'within', 'contains'] as const) {
          const test = geoTest(op, country.wkt);
          const geoms = data.flatMap((d) => (d.geom !== null && test.geometry(readGeometry(d.geom)) ? [d.id] : []));
          const points = data.flatMap((d) => (d.lat !== null && test.geometry(readGeometry(`POINT(${d.lon} ${d.lat})`)) ? [d.id] : []));
          expect(await ids(`geom ${op} $q`)).toEqual(geoms);
          expect(await ids(`lat ${op} $q`)).toEqual(points);
          expect(await ids(`not (geom ${op} $q) and id >= 0`)).toEqual(data.flatMap((d) => (d.geom !== null && !geoms.includes(d.id) ? [d.id] : [])));
        }
        const boxed = data.flatMap((d) => (d.geom !== null && boxesMeet(bboxOf(readGeometry(d.geom) as Geometry)!, qbox) ? [d.id] : []));
        const greedy = await ids('geom ~ $q');
        expect(greedy).toEqual(boxed);
        const exact = await ids('geom intersect $q');
        expect(exact.every((id) => greedy.includes(id))).toBe(true);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
