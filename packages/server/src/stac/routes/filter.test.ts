// The filter extension over HTTP: both encodings by GET and POST, filter-lang, filter-crs, errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, get, post, stacApp, type Reply, type TestApp } from '../../test-util/app.js';
import { boxPolygon, dataset, footprint } from '../../test-util/catalog.js';

let t: TestApp;
const titles = (r: Reply) => r.body.features.map((f: { properties: { title: string } }) => f.properties.title).sort();
const cql = { op: 's_intersects', args: [{ property: 'geometry' }, { type: 'Point', coordinates: [5, 5] }] };

beforeAll(async () => {
  t = await stacApp([dataset(0, { title: 'a' }), footprint(0, 'dataset-0', boxPolygon(0, 0, 10, 10)), dataset(1, { title: 'b' }), dataset(2, { title: 'c' })]);
});
afterAll(async () => { await t.app.close(); });

describe('filter', () => {
  it('takes cql2-text by GET (default) and cql2-json by GET with filter-lang', async () => {
    expect(titles(await get(t.app, `/api/stac/search?filter=${encodeURIComponent("title IN ('a','c')")}`, 'itemCollection'))).toEqual(['a', 'c']);
    expect(titles(await get(t.app, `/api/stac/search?filter-lang=cql2-json&filter=${encodeURIComponent(JSON.stringify(cql))}`, 'itemCollection'))).toEqual(['a']);
  });
  it('takes cql2-json (default) and cql2-text strings by POST, combined with the other parameters', async () => {
    expect(titles(await post(t.app, '/api/stac/search', { filter: cql }, 'itemCollection'))).toEqual(['a']);
    expect(titles(await post(t.app, '/api/stac/search', { filter: "title <> 'a'", 'filter-lang': 'cql2-text' }, 'itemCollection'))).toEqual(['b', 'c']);
    expect(titles(await post(t.app, '/api/stac/search', { filter: "title <> 'a'" }, 'itemCollection'))).toEqual(['b', 'c']);
    expect(titles(await post(t.app, '/api/stac/search', { filter: "storage_class = 'tabular'", bbox: [-1, -1, 1, 1] }, 'itemCollection'))).toEqual(['a']);
    expect(titles(await post(t.app, '/api/stac/search', { filter: cql, 'filter-crs': 'http://www.opengis.net/def/crs/OGC/1.3/CRS84' }, 'itemCollection'))).toEqual(['a']);
  });
  it('answers bad filters with a 400 naming the problem', async () => {
    expectError(await get(t.app, `/api/stac/search?filter=${encodeURIComponent("title = 'a' garbage")}`), 400, /filter: unexpected 'garbage' after a complete expression at position 12/);
    expectError(await get(t.app, '/api/stac/search?filter-lang=cql2-json&filter=%7B'), 400, /filter: is not valid JSON/);
    expectError(await post(t.app, '/api/stac/search', { filter: cql, 'filter-lang': 'cql2-text' }), 400, /must be a string/);
    expectError(await post(t.app, '/api/stac/search', { filter: cql, 'filter-lang': 'sql' }), 400, /filter-lang: must be cql2-text or cql2-json/);
    expectError(await post(t.app, '/api/stac/search', { filter: cql, 'filter-crs': 'EPSG:3857' }), 400, /filter-crs/);
    expectError(await post(t.app, '/api/stac/search', { filter: { op: '=', args: [{ property: 'depth' }, 1] } }), 400, /unknown property 'depth'/);
  });
});
