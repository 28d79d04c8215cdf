// Search parameters over HTTP: limit, offset, bbox (invalid, antimeridian, degenerate), intersects, ids,
// collections, POST string forms and content types, fields and sortby.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, get, post, stacApp, type Reply, type TestApp } from '../../test-util/app.js';
import { boxPolygon, collection, dataset, footprint, uuid } from '../../test-util/catalog.js';

let t: TestApp;
const titles = (r: Reply) => r.body.features.map((f: { properties: { title: string } }) => f.properties.title).sort();

beforeAll(async () => {
  t = await stacApp([
    collection(0), collection(1),
    dataset(0, { collection: 'collection-0', title: 'east' }), footprint(0, 'dataset-0', boxPolygon(175, -5, 179, 5)),
    dataset(1, { collection: 'collection-0', title: 'west' }), footprint(1, 'dataset-1', boxPolygon(-179, -5, -175, 5)),
    dataset(2, { collection: 'collection-1', title: 'center' }), footprint(2, 'dataset-2', boxPolygon(0, 0, 10, 10)),
    dataset(3, { collection: 'collection-1', title: 'point' }), footprint(3, 'dataset-3', { type: 'Point', coordinates: [20, 20] }),
    dataset(4, { title: 'triangle' }), footprint(4, 'dataset-4', { type: 'Polygon', coordinates: [[[30, 30], [40, 30], [30, 40], [30, 30]]] }),
    dataset(5, { title: 'nowhere' }),
  ]);
});
afterAll(async () => { await t.app.close(); });

describe('limit and offset', () => {
  it.each([1, 2, 10, 10000, 100000, 1000000])('limit=%i is a 200 serving at most min(limit, 10000)', async (limit) => {
    const r = await get(t.app, `/api/stac/search?limit=${limit}`, 'itemCollection');
    expect(r.body.numberReturned).toBe(Math.min(limit, 6));
    const p = await post(t.app, '/api/stac/search', { limit }, 'itemCollection');
    expect(p.body.numberReturned).toBe(Math.min(limit, 6));
  });
  it.each(['-1', '0', 'abc', '1.5', '', '1e3'])('limit=%j is a 400', async (limit) => {
    expectError(await get(t.app, `/api/stac/search?limit=${limit}`), 400, /^limit: /);
  });
  it('rejects non-integer limits in POST and negative offsets', async () => {
    expectError(await post(t.app, '/api/stac/search', { limit: -1 }), 400, /limit: must be ≥ 1/);
    expectError(await post(t.app, '/api/stac/search', { limit: 0 }), 400, /limit/);
    expectError(await post(t.app, '/api/stac/search', { limit: 2.5 }), 400, /limit: must be an integer/);
    expectError(await get(t.app, '/api/stac/search?offset=-1'), 400, /offset/);
  });
  it('clamps limit to 10000 on a catalog larger than that', async () => {
    const big = await stacApp(Array.from({ length: 10_005 }, (_, i) => dataset(i)));
    const r = await get(big.app, '/api/stac/search?limit=1000000');
    expect(r.body.numberReturned).toBe(10_000);
    expect(r.body.links.some((l: { rel: string }) => l.rel === 'next')).toBe(true);
    await big.app.close();
  });
  it('offset skips matches in (created, uuid) order', async () => {
    const all = (await get(t.app, '/api/stac/search?limit=6', 'itemCollection')).body.features.map((f: { id: string }) => f.id);
    const r = await get(t.app, '/api/stac/search?limit=2&offset=3', 'itemCollection');
    expect(r.body.features.map((f: { id: string }) => f.id)).toEqual(all.slice(3, 5));
  });
});

describe('bbox', () => {
  it.each([
    ['1', /needs 4 or 6 numbers, got 1/], ['1,2', /got 2/], ['1,2,3', /got 3/], ['1,2,3,4,5', /got 5/], ['1,2,3,4,5,6,7', /got 7/],
    ['0,10,10,5', /south 10 is above north 5/], ['a,b,c,d', /element 0 is not a finite number/], ['0,0,10,x', /element 3/],
    ['0,-91,10,10', /south -91 is outside/], ['-181,0,10,10', /west -181 is outside/], ['0,0,0,10,10,-5', /minimum elevation/], ['', /got 1/], ['0,,1,1', /element 1/],
  ])('GET bbox=%j is a 400', async (bbox, message) => {
    expectError(await get(t.app, `/api/stac/search?bbox=${bbox}`), 400, message);
  });
  it.each([
    [[1]], [[1, 2]], [[1, 2, 3]], [[1, 2, 3, 4, 5]], [[1, 2, 3, 4, 5, 6, 7]], [[0, 10, 10, 5]], [['0', '0', '1', '1']], [[0, 0, null, 1]], ['nope'], [{ w: 1 }],
  ])('POST bbox %j is a 400', async (bbox) => {
    expectError(await post(t.app, '/api/stac/search', { bbox }), 400, /^bbox: /);
  });
  it('selects by box overlap, also from the comma-separated POST form and with 6 numbers', async () => {
    expect(titles(await get(t.app, '/api/stac/search?bbox=-1,-1,25,25', 'itemCollection'))).toEqual(['center', 'point']);
    expect(titles(await post(t.app, '/api/stac/search', { bbox: '-1,-1,25,25' }, 'itemCollection'))).toEqual(['center', 'point']);
    expect(titles(await post(t.app, '/api/stac/search', { bbox: [-1, -1, -100, 25, 25, 100] }, 'itemCollection'))).toEqual(['center', 'point']);
  });
  it('crosses the antimeridian when west > east', async () => {
    expect(titles(await get(t.app, '/api/stac/search?bbox=170,-10,-170,10', 'itemCollection'))).toEqual(['east', 'west']);
    expect(titles(await get(t.app, '/api/stac/search?bbox=178,-10,-178,10', 'itemCollection'))).toEqual(['east', 'west']);
    expect(titles(await get(t.app, '/api/stac/search?bbox=179.5,-10,-179.5,10', 'itemCollection'))).toEqual([]);
    expect(titles(await get(t.app, '/api/stac/search?bbox=170,-10,-177,10', 'itemCollection'))).toEqual(['east', 'west']);
  });
  it('accepts degenerate boxes: a point and lines', async () => {
    expect(titles(await get(t.app, '/api/stac/search?bbox=20,20,20,20', 'itemCollection'))).toEqual(['point']);
    expect(titles(await get(t.app, '/api/stac/search?bbox=5,-50,5,50', 'itemCollection'))).toEqual(['center']);
    expect(titles(await get(t.app, '/api/stac/search?bbox=-180,7,180,7', 'itemCollection'))).toEqual(['center']);
    expect(titles(await get(t.app, '/api/stac/search?bbox=10,10,10,10', 'itemCollection'))).toEqual(['center']);
    expect(titles(await get(t.app, '/api/stac/search?bbox=21,21,21,21', 'itemCollection'))).toEqual([]);
  });
  it('cannot be combined with intersects', async () => {
    expectError(await post(t.app, '/api/stac/search', { bbox: [0, 0, 1, 1], intersects: { type: 'Point', coordinates: [0, 0] } }), 400, /bbox: cannot be combined with intersects/);
  });
});

describe('intersects', () => {
  it('tests exact geometry, not boxes', async () => {
    // inside the triangle's box but outside the triangle itself
    const corner = { type: 'Polygon', coordinates: [[[38, 38], [40, 38], [40, 40], [38, 40], [38, 38]]] };
    expect(titles(await post(t.app, '/api/stac/search', { intersects: corner }, 'itemCollection'))).toEqual([]);
    const inside = { type: 'Point', coordinates: [31, 31] };
    expect(titles(await post(t.app, '/api/stac/search', { intersects: inside }, 'itemCollection'))).toEqual(['triangle']);
  });
  it('takes every GeoJSON geometry type, by POST and by GET', async () => {
    const cases: [unknown, string[]][] = [
      [{ type: 'Point', coordinates: [5, 5] }, ['center']],
      [{ type: 'MultiPoint', coordinates: [[5, 5], [20, 20]] }, ['center', 'point']],
      [{ type: 'LineString', coordinates: [[-5, -5], [35, 35]] }, ['center', 'point', 'triangle']],
      [{ type: 'MultiLineString', coordinates: [[[176, -10], [176, 10]], [[-176, -10], [-176, 10]]] }, ['east', 'west']],
      [boxPolygon(-1, -1, 1, 1), ['center']],
      [{ type: 'MultiPolygon', coordinates: [[[[19, 19], [21, 19], [21, 21], [19, 21], [19, 19]]], [[[176, 0], [177, 0], [177, 1], [176, 0]]]] }, ['east', 'point']],
      [{ type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [5, 5] }, { type: 'Point', coordinates: [31, 31] }] }, ['center', 'triangle']],
    ];
    for (const [g, expected] of cases) {
      expect(titles(await post(t.app, '/api/stac/search', { intersects: g }, 'itemCollection'))).toEqual(expected);
      expect(titles(await get(t.app, `/api/stac/search?intersects=${encodeURIComponent(JSON.stringify(g))}`, 'itemCollection'))).toEqual(expected);
    }
  });
  it.each([
    [{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }, /does not close/],
    [{ type: 'Polygon', coordinates: [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]] }, /not a valid geometry: Self-intersection/],
    [{ type: 'Point', coordinates: [200, 0] }, /longitude 200/],
    [{ type: 'Circle', coordinates: [0, 0] }, /not a GeoJSON geometry type/],
    [{ type: 'Point' }, /position/],
    ['POINT(0 0)', /not a GeoJSON geometry object/],
  ])('rejects %j', async (g, message) => {
    expectError(await post(t.app, '/api/stac/search', { intersects: g }), 400, message);
  });
  it('rejects intersects that is not JSON in GET', async () => {
    expectError(await get(t.app, '/api/stac/search?intersects=%7Bnope'), 400, /intersects: is not valid JSON/);
  });
});

describe('ids, collections, body forms', () => {
  it('takes arrays or comma-separated strings', async () => {
    const [a, b] = [uuid(0), uuid(2)];
    expect(titles(await get(t.app, `/api/stac/search?ids=${a},${b}`, 'itemCollection'))).toEqual(['center', 'east']);
    expect(titles(await post(t.app, '/api/stac/search', { ids: [a, b] }, 'itemCollection'))).toEqual(['center', 'east']);
    expect(titles(await post(t.app, '/api/stac/search', { ids: `${a},${b}` }, 'itemCollection'))).toEqual(['center', 'east']);
    const c1 = uuid(1, 2);
    expect(titles(await get(t.app, `/api/stac/search?collections=${c1}`, 'itemCollection'))).toEqual(['center', 'point']);
    expect(titles(await post(t.app, '/api/stac/search', { collections: [c1, uuid(0, 2)] }, 'itemCollection'))).toEqual(['center', 'east', 'point', 'west']);
    expect(titles(await post(t.app, '/api/stac/search', { collections: `${c1}`, bbox: '-1,-1,15,15' }, 'itemCollection'))).toEqual(['center']);
    expect(titles(await post(t.app, '/api/stac/search', { collections: ['no-such-collection'] }, 'itemCollection'))).toEqual([]);
  });
  it('accepts application/json, application/geo+json and an empty body', async () => {
    expect((await post(t.app, '/api/stac/search', { limit: 2 }, 'itemCollection', 'application/geo+json')).body.numberReturned).toBe(2);
    expect((await post(t.app, '/api/stac/search', { limit: 2 }, 'itemCollection', 'application/json; charset=utf-8')).body.numberReturned).toBe(2);
    const empty = await t.app.inject({ method: 'POST', url: '/api/stac/search' });
    expect(empty.statusCode).toBe(200);
  });
  it('rejects malformed JSON, other media types, unknown fields and repeated GET parameters', async () => {
    expectError(await post(t.app, '/api/stac/search', '{"limit": ', undefined, 'application/geo+json'), 400);
    expectError(await post(t.app, '/api/stac/search', '{"limit": ', undefined, 'application/json'), 400);
    expectError(await post(t.app, '/api/stac/search', 'limit=1', undefined, 'text/plain'), 415);
    expectError(await post(t.app, '/api/stac/search', { limt: 1 }), 400, /limt: unknown search field/);
    expectError(await post(t.app, '/api/stac/search', [1]), 400, /body: must be a JSON object/);
    expectError(await get(t.app, '/api/stac/search?datetme=x'), 400, /datetme: unknown query parameter/);
    expectError(await get(t.app, '/api/stac/search?limit=1&limit=2'), 400, /limit: is given more than once/);
    expectError(await post(t.app, '/api/stac/search', { ids: [1, 2] }), 400, /ids: must be an array of non-empty strings/);
  });
  it('caps the body size', async () => {
    const huge = { intersects: { type: 'MultiPoint', coordinates: Array.from({ length: 100_000 }, () => [1.123456789, 2.123456789]) } };
    expectError(await post(t.app, '/api/stac/search', huge), 413);
  });
});

describe('fields and sortby', () => {
  it('includes and excludes fields', async () => {
    const r = await post(t.app, '/api/stac/search', { ids: [uuid(2)], fields: { include: ['id', 'properties.title'], exclude: [] } });
    expect(r.body.features[0]).toEqual({ type: 'Feature', id: uuid(2), properties: { title: 'center' } });
    const g = await get(t.app, `/api/stac/search?ids=${uuid(2)}&fields=-geometry,-properties.facets,-links`);
    expect(g.body.features[0].geometry).toBeUndefined();
    expect(g.body.features[0].links).toBeUndefined();
    expect(g.body.features[0].properties.facets).toBeUndefined();
    expect(g.body.features[0].properties.title).toBe('center');
    // the cached item is untouched
    expect((await get(t.app, `/api/stac/items/${uuid(2)}`, 'item')).body.properties.facets).toEqual({ region: 'south' });
  });
  it('sorts by any sortable queryable, both directions, GET and POST forms', async () => {
    const order = (r: Reply) => r.body.features.map((f: { properties: { title: string } }) => f.properties.title);
    expect(order(await get(t.app, '/api/stac/search?sortby=title&limit=10', 'itemCollection'))).toEqual(['center', 'east', 'nowhere', 'point', 'triangle', 'west']);
    expect(order(await get(t.app, '/api/stac/search?sortby=-properties.title&limit=10', 'itemCollection'))).toEqual(['west', 'triangle', 'point', 'nowhere', 'east', 'center']);
    expect(order(await post(t.app, '/api/stac/search', { sortby: [{ field: 'title', direction: 'desc' }], limit: 2 }, 'itemCollection'))).toEqual(['west', 'triangle']);
    expect(order(await post(t.app, '/api/stac/search', { sortby: '+title', limit: 2 }, 'itemCollection'))).toEqual(['center', 'east']);
    expectError(await get(t.app, '/api/stac/search?sortby=nope'), 400, /sortby: unknown field 'nope'/);
    expectError(await get(t.app, '/api/stac/search?sortby=geometry'), 400, /not sortable/);
    expectError(await post(t.app, '/api/stac/search', { sortby: [{ field: 'title', direction: 'up' }] }), 400, /direction/);
  });
});
