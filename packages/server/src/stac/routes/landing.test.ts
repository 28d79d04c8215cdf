// Landing page, conformance, service description and doc, queryables, unknown routes, and the token switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, get, stacApp, type TestApp } from '../../test-util/app.js';
import { seededCatalog } from '../../test-util/catalog.js';
import { CONFORMANCE, OPENAPI_TYPE } from '../conformance.js';

let t: TestApp;
beforeAll(async () => { t = await stacApp(seededCatalog(20, 2, 7)); });
afterAll(async () => { await t.app.close(); });

describe('GET /api/stac', () => {
  it('is a valid STAC catalog with conformsTo and every link the API needs', async () => {
    const r = await get(t.app, '/api/stac', 'landing');
    expect(r.body.conformsTo).toEqual(CONFORMANCE);
    const rels = r.body.links.map((l: { rel: string; method?: string }) => `${l.rel}${l.method ? `:${l.method}` : ''}`);
    for (const rel of ['self', 'root', 'service-desc', 'service-doc', 'conformance', 'data', 'search:GET', 'search:POST', 'http://www.opengis.net/def/rel/ogc/1.0/queryables']) expect(rels).toContain(rel);
    const search = r.body.links.filter((l: { rel: string }) => l.rel === 'search');
    for (const l of search) expect(l).toMatchObject({ href: 'https://stac.test/api/stac/search', type: 'application/geo+json' });
    expect(r.body.links.find((l: { rel: string }) => l.rel === 'data').href).toBe('https://stac.test/api/stac/collections');
    expect((await get(t.app, '/api/stac/', 'landing')).body.id).toBe('halocline');
  });

  it('links a service-desc whose type is what that URL really returns, and a service-doc in HTML', async () => {
    const links = (await get(t.app, '/api/stac')).body.links as { rel: string; href: string; type: string }[];
    const desc = links.find((l) => l.rel === 'service-desc')!;
    expect(desc.type).toBe(OPENAPI_TYPE);
    const r = await t.app.inject(new URL(desc.href).pathname);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe(desc.type);
    const doc = JSON.parse(r.body);
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/stac/search', '/api/stac/collections/{collectionId}/items', '/api/stac/items/{itemId}']));
    const html = await t.app.inject(new URL(links.find((l) => l.rel === 'service-doc')!.href).pathname);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.body).toContain('/api/stac/search');
  });

  it('lets the host app point service-desc at its own OpenAPI document', async () => {
    const other = await stacApp([], { serviceDesc: 'https://stac.test/openapi.json' });
    const desc = (await get(other.app, '/api/stac')).body.links.find((l: { rel: string }) => l.rel === 'service-desc');
    expect(desc).toEqual({ rel: 'service-desc', href: 'https://stac.test/openapi.json', type: OPENAPI_TYPE });
    await other.app.close();
  });
});

describe('conformance and queryables', () => {
  it('GET /conformance lists the same classes', async () => {
    expect((await get(t.app, '/api/stac/conformance', 'conformance')).body).toEqual({ conformsTo: CONFORMANCE });
  });
  it('GET /queryables is a JSON Schema of the filterable properties', async () => {
    const r = await get(t.app, '/api/stac/queryables');
    expect(r.type).toMatch(/^application\/schema\+json/);
    expect(r.body.$id).toBe('https://stac.test/api/stac/queryables');
    expect(Object.keys(r.body.properties)).toEqual(expect.arrayContaining(['id', 'collection', 'geometry', 'datetime', 'title', 'storage_class']));
    expect(r.body.properties.geometry).toMatchObject({ $ref: 'https://geojson.org/schema/Geometry.json' });
  });
});

describe('errors, base URL and access', () => {
  it('answers an unknown STAC route with a 404 {code, description}', async () => {
    expectError(await get(t.app, '/api/stac/nothing/here'), 404, /no STAC route for GET \/api\/stac\/nothing\/here/);
  });

  it('builds links from the request host when no base URL is configured (X-Forwarded-* only with trustProxy)', async () => {
    const { default: Fastify } = await import('fastify');
    const { MemorySource, stacPlugin } = await import('../../index.js');
    for (const [trustProxy, expected] of [[true, 'https://public.example/api/stac'], [false, 'http://internal:8080/api/stac']] as const) {
      const app = Fastify({ trustProxy });
      await app.register(stacPlugin, { source: new MemorySource() });
      const r = await app.inject({ url: '/api/stac', headers: { host: 'internal:8080', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example' } });
      expect(JSON.parse(r.body).links[0].href).toBe(expected);
      await app.close();
    }
  });

  it('is public by default; with an authenticate hook every route requires it', async () => {
    const locked = await stacApp(seededCatalog(3, 1, 1), {
      authenticate: async (req, reply) => {
        if (req.headers.authorization !== 'Bearer good') await reply.status(401).send({ code: 'Unauthorized', description: 'a bearer token is required' });
      },
    });
    for (const url of ['/api/stac', '/api/stac/collections', '/api/stac/search', '/api/stac/conformance']) {
      expect((await locked.app.inject(url)).statusCode).toBe(401);
      expect((await locked.app.inject({ url, headers: { authorization: 'Bearer good' } })).statusCode).toBe(200);
    }
    expect((await locked.app.inject({ method: 'POST', url: '/api/stac/search', payload: {} })).statusCode).toBe(401);
    await locked.app.close();
  });
});
