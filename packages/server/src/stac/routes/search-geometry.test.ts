// Search by geometry: bbox against the geometry itself (not its envelope), 3D boxes, boxes across the
// antimeridian in bbox and in CQL2 BBOX(), and spatial relations with multi-part footprints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, get, post, stacApp, type Reply, type TestApp } from '../../test-util/app.js';
import { boxPolygon, dataset, footprint } from '../../test-util/catalog.js';

let t: TestApp;
const titles = (r: Reply) => r.body.features.map((f: { properties: { title: string } }) => f.properties.title).sort();
const search = async (query: string) => titles(await get(t.app, `/api/stac/search?${query}`, 'itemCollection'));
const filter = (text: string) => search(`filter=${encodeURIComponent(text)}`);

// Fiji's footprint, split at the antimeridian: its envelope is the whole width of the map
const fiji = { type: 'MultiPolygon', coordinates: [[[[177, -20], [180, -20], [180, -15], [177, -15], [177, -20]]], [[[-180, -20], [-178, -20], [-178, -15], [-180, -15], [-180, -20]]]] };

beforeAll(async () => {
  t = await stacApp([
    dataset(0, { title: 'diagonal' }), footprint(0, 'dataset-0', { type: 'LineString', coordinates: [[0, 0], [10, 10]] }),
    dataset(1, { title: 'fiji' }), footprint(1, 'dataset-1', fiji),
    dataset(2, { title: 'square' }), footprint(2, 'dataset-2', boxPolygon(-1, -1, 1, 1)),
    dataset(3, { title: 'islands' }), footprint(3, 'dataset-3', { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [5, 2] }, { type: 'GeometryCollection', geometries: [{ type: 'MultiPoint', coordinates: [[20, 20], [21, 21]] }] }] }),
  ]);
});
afterAll(async () => { await t.app.close(); });

describe('bbox', () => {
  it('selects the items whose geometry meets the box, not its envelope', async () => {
    expect(await search('bbox=8,0,10,2')).toEqual([]); // inside the diagonal's envelope, off the line
    expect(await search('bbox=4,1,6,3')).toEqual(['islands']); // a point of the collection, in its envelope's empty middle
    expect(await search('bbox=12,12,19,19')).toEqual([]);
    expect(await search('bbox=0.5,0.5,2,2')).toEqual(['diagonal', 'square']);
    expect(await search('bbox=-1,-19,1,-16')).toEqual([]); // at longitude 0, inside Fiji's envelope
    expect(await search('bbox=178,-19,-179,-16')).toEqual(['fiji']);
    expect(titles(await post(t.app, '/api/stac/search', { bbox: [8, 0, 10, 2] }, 'itemCollection'))).toEqual([]);
  });
  it('takes a 3D box to hold 2D geometries at elevation 0', async () => {
    expect(await search('bbox=0.5,0.5,-10,2,2,10')).toEqual(['diagonal', 'square']);
    expect(await search('bbox=0.5,0.5,0,2,2,0')).toEqual(['diagonal', 'square']);
    expect(await search('bbox=0.5,0.5,100,2,2,200')).toEqual([]);
    expect(await search('bbox=0.5,0.5,-200,2,2,-100')).toEqual([]);
  });
});

describe('CQL2 spatial functions', () => {
  it('reads a BBOX() whose west is above its east as crossing the antimeridian', async () => {
    expect(await filter('S_INTERSECTS(geometry, BBOX(178,-19,-179,-16))')).toEqual(['fiji']);
    expect(await filter('S_INTERSECTS(geometry, BBOX(178,-1,-179,1))')).toEqual([]); // not the world between, where the square is
    expect(titles(await post(t.app, '/api/stac/search', { filter: { op: 's_intersects', args: [{ property: 'geometry' }, { bbox: [178, -19, -179, -16] }] } }, 'itemCollection'))).toEqual(['fiji']);
    expect(await filter('S_INTERSECTS(geometry, BBOX(178,-19,179,-16))')).toEqual(['fiji']);
    expect(await filter('S_INTERSECTS(geometry, BBOX(-1,-19,1,-16))')).toEqual([]);
  });
  it('relates multi-part geometries by every function', async () => {
    const big = 'POLYGON((-50 -50, 50 -50, 50 70, -50 70, -50 -50))';
    expect(await filter(`S_WITHIN(geometry, ${big})`)).toEqual(['diagonal', 'islands', 'square']);
    expect(await filter(`S_WITHIN(geometry, MULTIPOLYGON(((-50 -50, 50 -50, 50 70, -50 70, -50 -50))))`)).toEqual(['diagonal', 'islands', 'square']);
    expect(await filter('S_WITHIN(geometry, POLYGON((170 -30, 180 -30, 180 0, 170 0, 170 -30)))')).toEqual([]); // half of Fiji
    expect(await filter('S_CONTAINS(geometry, POINT(178 -17))')).toEqual(['fiji']);
    expect(await filter('S_EQUALS(geometry, MULTIPOLYGON(((177 -20, 180 -20, 180 -15, 177 -15, 177 -20)), ((-180 -20, -178 -20, -178 -15, -180 -15, -180 -20))))')).toEqual(['fiji']);
    expect(await filter('S_CONTAINS(geometry, POINT(21 21))')).toEqual(['islands']);
    expectError(await get(t.app, `/api/stac/search?filter=${encodeURIComponent('S_WITHIN(geometry, GEOMETRYCOLLECTION(POINT(1 1)))')}`), 400, /S_WITHIN does not take a GeometryCollection/);
  });
});

describe('footprints that are GeometryCollections', () => {
  it('serves one of points, lines or polygons alone as the multi-part geometry it is (a valid STAC item)', async () => {
    const item = (await get(t.app, `/api/stac/search?bbox=4,1,6,3`, 'itemCollection')).body.features[0];
    expect(item.geometry).toEqual({ type: 'MultiPoint', coordinates: [[5, 2], [20, 20], [21, 21]] });
    expect(item.bbox).toEqual([5, 2, 21, 21]);
  });
  it('takes a mixed one in S_INTERSECTS and S_DISJOINT, and leaves it out of the other relations without failing the search', async () => {
    const mixed = await stacApp([
      dataset(0, { title: 'mixed' }), footprint(0, 'dataset-0', { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [5, 2] }, boxPolygon(20, 20, 21, 21)] }),
      dataset(1, { title: 'square' }), footprint(1, 'dataset-1', boxPolygon(-1, -1, 1, 1)),
    ]);
    // the item itself is no valid STAC item (its schema has no GeometryCollection): the searches are read unchecked
    const found = async (text: string) => {
      const r = await get(mixed.app, `/api/stac/search?filter=${encodeURIComponent(text)}`);
      expect(r.status, r.body.description).toBe(200);
      return titles(r);
    };
    expect(await found('S_INTERSECTS(geometry, POINT(5 2))')).toEqual(['mixed']);
    expect(await found('S_DISJOINT(geometry, POINT(5 2))')).toEqual(['square']);
    expect(await found('S_WITHIN(geometry, POLYGON((-50 -50, 50 -50, 50 70, -50 70, -50 -50)))')).toEqual(['square']);
    await mixed.app.close();
  });
});
