// Collections (paging, lookup by UUID/name/title, mapping), items under a collection, and items by id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, get, stacApp, type Reply, type TestApp } from '../../test-util/app.js';
import { boxPolygon, collection, dataset, footprint, timeCoverage, uuid } from '../../test-util/catalog.js';
import type { Resource } from '../source.js';

let t: TestApp;
const C0 = uuid(0, 2);
const rels = (r: Reply) => Object.fromEntries(r.body.links.map((l: { rel: string; href: string }) => [l.rel, l.href]));

beforeAll(async () => {
  const resources: Resource[] = [
    collection(0, { title: 'Argo floats' }),
    collection(1, { title: 'Shared title', spec: { license: { name: 'Creative Commons Attribution 4.0', href: 'https://creativecommons.org/licenses/by/4.0/' }, tags: [] } }),
    collection(2, { title: 'Shared title', spec: {} }),
    dataset(0, { collection: 'collection-0' }), footprint(0, 'dataset-0', boxPolygon(-10, -20, 0, 0)), timeCoverage(0, 'dataset-0', '2001-01-01T00:00:00Z', '2002-01-01T00:00:00Z'),
    dataset(1, { collection: 'collection-0' }), footprint(1, 'dataset-1', boxPolygon(5, 5, 15, 10)), timeCoverage(1, 'dataset-1', '2003-01-01T00:00:00Z', '2004-06-01T00:00:00Z'),
    dataset(2, { collection: 'collection-0' }),
    dataset(3, { collection: 'collection-1' }),
    dataset(4),
  ];
  for (let i = 3; i < 25; i++) resources.push(collection(i));
  t = await stacApp(resources);
});
afterAll(async () => { await t.app.close(); });

describe('GET /collections', () => {
  it('pages with offset/limit, self = the requested URL, next and prev links', async () => {
    const first = await get(t.app, '/api/stac/collections?limit=10', 'collections');
    expect(first.body.collections).toHaveLength(10);
    expect(first.body.numberMatched).toBe(25);
    expect(rels(first)['self']).toBe('https://stac.test/api/stac/collections?limit=10');
    expect(rels(first)['prev']).toBeUndefined();
    const second = await get(t.app, new URL(rels(first)['next']).pathname + new URL(rels(first)['next']).search, 'collections');
    expect(second.body.collections[0].id).toBe(uuid(10, 2));
    expect(rels(second)['prev']).toBe('https://stac.test/api/stac/collections?limit=10&offset=0');
    const last = await get(t.app, '/api/stac/collections?offset=20&limit=10', 'collections');
    expect(last.body.collections).toHaveLength(5);
    expect(rels(last)['next']).toBeUndefined();
    expect(rels(last)['self']).toBe('https://stac.test/api/stac/collections?offset=20&limit=10');
    expect((await get(t.app, '/api/stac/collections', 'collections')).body.collections).toHaveLength(10);
  });
  it('ends a page at about pageBytes of collection JSON too (at least one); next links visit every collection once', async () => {
    const big = (n: number) => collection(n, { description: 'd'.repeat(n % 4 === 0 ? 9000 : 500) });
    const small = await stacApp(Array.from({ length: 20 }, (_, n) => big(n)), { pageBytes: 8 * 1024 });
    const seen: string[] = [];
    let url: string | undefined = '/api/stac/collections?limit=100';
    let pages = 0;
    while (url) {
      const r = await get(small.app, url, 'collections');
      pages++;
      seen.push(...r.body.collections.map((c: { id: string }) => c.id));
      expect(r.body.numberReturned).toBe(r.body.collections.length);
      if (r.body.collections.length > 1) expect(JSON.stringify(r.body.collections).length).toBeLessThanOrEqual(8 * 1024);
      const next = rels(r)['next'];
      url = next ? new URL(next).pathname + new URL(next).search : undefined;
    }
    expect(seen).toEqual(Array.from({ length: 20 }, (_, n) => uuid(n, 2)));
    expect(pages).toBeGreaterThan(3);
    await small.app.close();
  });
  it('rejects bad paging parameters', async () => {
    expectError(await get(t.app, '/api/stac/collections?limit=0'), 400, /limit/);
    expectError(await get(t.app, '/api/stac/collections?offset=x'), 400, /offset/);
    expectError(await get(t.app, '/api/stac/collections?bbox=1,2,3,4'), 400, /bbox: unknown query parameter/);
  });
});

describe('GET /collections/{id}', () => {
  it('maps a data collection: title, keywords, license, providers, extent from its datasets, links', async () => {
    const c = (await get(t.app, `/api/stac/collections/${C0}`, 'collection')).body;
    expect(c).toMatchObject({
      id: C0, title: 'Argo floats', description: 'Collection number 0', keywords: ['ocean', 'c0'], license: 'CC-BY-4.0',
      providers: [{ name: 'Ocean Org', roles: ['producer', 'licensor'], url: 'https://ocean.example.org/' }],
      extent: { spatial: { bbox: [[-10, -20, 15, 10]] }, temporal: { interval: [['2001-01-01T00:00:00.000Z', '2004-06-01T00:00:00.000Z']] } },
    });
    expect(rels({ body: c } as Reply)).toMatchObject({
      self: `https://stac.test/api/stac/collections/${C0}`, root: 'https://stac.test/api/stac', parent: 'https://stac.test/api/stac',
      items: `https://stac.test/api/stac/collections/${C0}/items`, license: 'https://creativecommons.org/licenses/by/4.0/',
    });
  });
  it('uses the world and an open interval without coverages, and proprietary for a non-SPDX license', async () => {
    const c = (await get(t.app, `/api/stac/collections/${uuid(1, 2)}`, 'collection')).body;
    expect(c.extent).toEqual({ spatial: { bbox: [[-180, -90, 180, 90]] }, temporal: { interval: [[null, null]] } });
    expect(c.license).toBe('proprietary');
    expect(c.links.find((l: { rel: string }) => l.rel === 'license')).toMatchObject({ title: 'Creative Commons Attribution 4.0' });
    expect(c.keywords).toEqual([]);
  });
  it('finds a collection by UUID, name or title; an ambiguous title is a 400, a missing one a 404', async () => {
    expect((await get(t.app, '/api/stac/collections/collection-0', 'collection')).body.id).toBe(C0);
    expect((await get(t.app, `/api/stac/collections/${encodeURIComponent('Argo floats')}`, 'collection')).body.id).toBe(C0);
    expectError(await get(t.app, `/api/stac/collections/${encodeURIComponent('Shared title')}`), 400, /names 2 collections/);
    expectError(await get(t.app, '/api/stac/collections/nope'), 404, /collection 'nope' not found/);
  });
  it('follows catalog changes: a new dataset widens the extent, a deleted collection is gone', async () => {
    t.source.put(dataset(50, { collection: 'collection-0' }));
    t.source.put(footprint(50, 'dataset-50', boxPolygon(100, 50, 120, 60)));
    expect((await get(t.app, `/api/stac/collections/${C0}`)).body.extent.spatial.bbox).toEqual([[-10, -20, 120, 60]]);
    t.source.delete(uuid(50, 3));
    expect((await get(t.app, `/api/stac/collections/${C0}`)).body.extent.spatial.bbox).toEqual([[-10, -20, 15, 10]]);
    t.source.delete(uuid(50));
    t.source.put(collection(99));
    expect((await get(t.app, `/api/stac/collections/${uuid(99, 2)}`, 'collection')).body.title).toBe('Collection 99');
    t.source.delete(uuid(99, 2));
    expectError(await get(t.app, `/api/stac/collections/${uuid(99, 2)}`), 404);
  });
});

describe('GET /collections/{id}/queryables', () => {
  it('is the items\' JSON Schema under the collection\'s URL, linked from the collection; 404 for an unknown one', async () => {
    const r = await get(t.app, '/api/stac/collections/collection-0/queryables');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/schema\+json/);
    expect(r.body.$id).toBe(`https://stac.test/api/stac/collections/${C0}/queryables`);
    expect(r.body.properties).toEqual((await get(t.app, '/api/stac/queryables')).body.properties);
    expect(rels(await get(t.app, `/api/stac/collections/${C0}`, 'collection'))['http://www.opengis.net/def/rel/ogc/1.0/queryables']).toBe(r.body.$id);
    expectError(await get(t.app, '/api/stac/collections/nope/queryables'), 404);
  });
});

describe('items', () => {
  it('lists a collection\'s items with self links under the collection', async () => {
    const r = await get(t.app, `/api/stac/collections/${C0}/items`, 'itemCollection');
    expect(r.body.features.map((f: { id: string }) => f.id)).toEqual([uuid(0), uuid(1), uuid(2)]);
    for (const f of r.body.features) {
      expect(f.collection).toBe(C0);
      expect(rels({ body: f } as Reply)['self']).toBe(`https://stac.test/api/stac/collections/${C0}/items/${f.id}`);
    }
    expect(rels(r)['self']).toBe(`https://stac.test/api/stac/collections/${C0}/items`);
    expect(rels(r)['collection']).toBe(`https://stac.test/api/stac/collections/${C0}`); // OGC API Features: required on a collection's items
    expect(rels(await get(t.app, '/api/stac/search', 'itemCollection'))['collection']).toBeUndefined();
    const filtered = await get(t.app, `/api/stac/collections/collection-0/items?bbox=4,4,20,20&limit=1`, 'itemCollection');
    expect(filtered.body.features.map((f: { id: string }) => f.id)).toEqual([uuid(1)]);
    expectError(await get(t.app, `/api/stac/collections/${C0}/items?collections=x`), 400, /collections: is implied/);
    expectError(await get(t.app, '/api/stac/collections/nope/items'), 404);
  });
  it('serves one item under its collection and at /items/{id}, with the spec\'s self link', async () => {
    const a = (await get(t.app, `/api/stac/collections/${C0}/items/${uuid(0)}`, 'item')).body;
    expect(a.id).toBe(uuid(0));
    const b = await get(t.app, `/api/stac/items/${uuid(0)}`, 'item');
    expect(b.type).toMatch(/^application\/geo\+json/);
    expect(rels(b)).toMatchObject({ self: `https://stac.test/api/stac/items/${uuid(0)}`, collection: `https://stac.test/api/stac/collections/${C0}`, parent: `https://stac.test/api/stac/collections/${C0}`, root: 'https://stac.test/api/stac' });
    expectError(await get(t.app, `/api/stac/collections/${uuid(1, 2)}/items/${uuid(0)}`), 404, /not found in collection/);
    expectError(await get(t.app, '/api/stac/items/nope'), 404, /item 'nope' not found/);
  });
  it('maps a dataset: geometry and bbox, properties, assets by storage class; null geometry without a footprint', async () => {
    const tab = (await get(t.app, `/api/stac/items/${uuid(0)}`, 'item')).body;
    expect(tab.geometry).toEqual(boxPolygon(-10, -20, 0, 0));
    expect(tab.bbox).toEqual([-10, -20, 0, 0]);
    expect(tab.properties).toMatchObject({ title: 'Dataset 0', description: 'Dataset number 0', keywords: ['sst', 'd0'], storage_class: 'tabular', facets: { region: 'north' }, maintainer: { organisation: 'Ocean Org' } });
    expect(tab.assets.table).toMatchObject({ href: `https://stac.test/api/table/v2/sdk/select?table_id=${uuid(0)}`, type: 'application/vnd.apache.arrow.stream', roles: ['data'] });
    const raw = (await get(t.app, `/api/stac/items/${uuid(3)}`, 'item')).body;
    expect(raw.geometry).toBeNull();
    expect(raw.bbox).toBeUndefined();
    expect(raw.assets.files).toMatchObject({ href: `https://stac.test/data/${uuid(3)}/list`, type: 'application/json' });
    const loose = (await get(t.app, `/api/stac/items/${uuid(4)}`, 'item')).body;
    expect(loose.collection).toBeUndefined();
    expect(loose.links.find((l: { rel: string }) => l.rel === 'parent').href).toBe('https://stac.test/api/stac');
  });
});
