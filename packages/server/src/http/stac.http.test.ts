// The STAC API mounted on the real app: catalog writes show up in search; public by default, a token when configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, square, startTestServer, type TestServer } from '../test-util/server.js';

describe('STAC over the catalog of a running server', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('serves catalog datasets as items, follows creates and deletes, needs no credentials', async () => {
    const coll = await s.json('POST', '/catalog', { json: manifests.collection('argo') });
    expect(coll.status).toBe(201);
    const ds = await s.json('POST', '/catalog', { json: manifests.dataset('floats', 'tabular', { data_collection: 'catalog.example.io/dataCollection/argo' }) });
    expect(ds.status).toBe(201);
    expect((await s.json('POST', '/catalog', { json: manifests.geoObservable('floats-area', 'floats', square(10, 50, 5)) })).status).toBe(201);
    const uuid = ds.body.metadata.uuid as string;

    const landing = await s.json('GET', '/api/stac', { key: null });
    expect(landing.status).toBe(200);
    expect(landing.body.type).toBe('Catalog');

    const hit = await s.json('POST', '/api/stac/search', { key: null, json: { bbox: [11, 51, 12, 52] } });
    expect(hit.status).toBe(200);
    expect(hit.body.features.map((f: { id: string }) => f.id)).toEqual([uuid]);
    expect(hit.body.features[0].collection).toBe(coll.body.metadata.uuid);
    expect(hit.body.features[0].bbox).toEqual([10, 50, 15, 55]);
    const miss = await s.json('GET', '/api/stac/search?bbox=-20,-20,-10,-10', { key: null });
    expect(miss.body.features).toEqual([]);

    expect((await s.req('DELETE', `/catalog/${uuid}`)).status).toBeLessThan(300);
    const gone = await s.json('GET', `/api/stac/items/${uuid}`, { key: null });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('NotFound');
  });

  it('a search body that is not JSON is a 415 naming the content type (the app hands such bodies on as streams)', async () => {
    const res = await s.json('POST', '/api/stac/search', { key: null, body: '{"limit": 1}', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ code: 'UnsupportedMediaType', description: expect.stringContaining('text/plain') });
  });
});

describe('STAC with stacRequiresAuth', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ stacRequiresAuth: true });
  });
  afterAll(() => s.close());

  it('answers 401 without credentials and 200 with a key', async () => {
    const anon = await s.json('GET', '/api/stac/collections', { key: null });
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('Unauthorized');
    const bad = await s.req('GET', '/api/stac/collections', { key: 'Sk_not-a-key' });
    expect(bad.status).toBe(401);
    const ok = await s.json('GET', '/api/stac/collections', { key: s.aliceKey });
    expect(ok.status).toBe(200);
    expect(ok.body.collections).toEqual([]);
  });
});
