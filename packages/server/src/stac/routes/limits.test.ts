// Hostile input: deep nesting in bodies and filters, huge values — always a 4xx, never a 500 or a crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, get, post, stacApp, type TestApp } from '../../test-util/app.js';
import { dataset } from '../../test-util/catalog.js';
import Fastify from 'fastify';
import { installBodyParsers } from '../../http/body.js';
import { MemorySource } from '../memory-source.js';
import { stacPlugin } from '../plugin.js';

let t: TestApp;
beforeAll(async () => { t = await stacApp([dataset(0)]); });
afterAll(async () => { await t.app.close(); });

describe('limits', () => {
  it('answers deeply nested JSON bodies and geometries with a 4xx', async () => {
    const r = await post(t.app, '/api/stac/search', `{"intersects": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    let gc: unknown = { type: 'Point', coordinates: [0, 0] };
    for (let i = 0; i < 50; i++) gc = { type: 'GeometryCollection', geometries: [gc] };
    expectError(await post(t.app, '/api/stac/search', { intersects: gc }), 400, /nest deeper than 8/);
  });
  it('answers a deeply nested filter with a 400', async () => {
    expectError(await get(t.app, `/api/stac/search?filter=${'('.repeat(3000)}TRUE${')'.repeat(3000)}`), 400, /nesting deeper/);
    const deep = `{"filter": ${'{"op": "not", "args": ['.repeat(3000)}true${']}'.repeat(3000)}}`;
    expectError(await post(t.app, '/api/stac/search', deep), 400, /nesting deeper/);
  });
  it('rejects an over-long text filter and ids lists with empty entries', async () => {
    expectError(await post(t.app, '/api/stac/search', { filter: `title = '${'x'.repeat(100_001)}'` }), 400, /longer than 100000/);
    expectError(await get(t.app, '/api/stac/search?ids=a,,b'), 400, /ids/);
  });
  it('takes names that objects inherit (constructor, toString, __proto__) for the unknown names they are', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'properties.hasOwnProperty']) {
      expectError(await get(t.app, `/api/stac/search?sortby=${name}`), 400, new RegExp(`sortby: unknown field '${name.replace('.', '\\.')}'`));
      expectError(await post(t.app, '/api/stac/search', { sortby: [{ field: name }] }), 400, /unknown field/);
      expectError(await get(t.app, `/api/stac/search?filter=${encodeURIComponent(`${name} IS NULL`)}`), 400, /unknown property/);
      expectError(await get(t.app, `/api/stac/search?filter=${encodeURIComponent(`${name} = 'x'`)}`), 400, /unknown property/);
    }
  });
  it('answers bodies the host refuses with its 400, and holds its own body limit over the host\'s JSON parser', async () => {
    const app = Fastify({ bodyLimit: 32 << 20 });
    installBodyParsers(app); // the server's parsers: application/json is the host's, with the host's limit
    await app.register(stacPlugin, { source: new MemorySource([dataset(0)]), baseUrl: 'https://stac.test', bodyLimit: 1 << 20 });
    await app.ready();
    expectError(await post(app, '/api/stac/search', '{"limit":'), 400, /not valid JSON/);
    expectError(await post(app, '/api/stac/search', '{"limit":2,"__proto__":{"x":1}}'), 400, /__proto__/);
    expectError(await post(app, '/api/stac/search', `{"filter":${'['.repeat(300)}${']'.repeat(300)}}`), 400, /nests deeper/);
    const big = JSON.stringify({ ids: Array.from({ length: 60_000 }, (_, i) => `id-${i}-xxxxxxxxxx`) });
    expect(big.length).toBeGreaterThan(1 << 20);
    for (const type of ['application/json', 'application/geo+json']) expectError(await post(app, '/api/stac/search', big, undefined, type), 413);
    expect((await post(app, '/api/stac/search', { limit: 1 }, 'itemCollection')).status).toBe(200);
    await app.close();
  });
  it('answers a Host header that is no host with a 400, on every route that builds links', async () => {
    const own = await stacApp([dataset(0), dataset(1)], { baseUrl: undefined }); // links from the request's Host
    for (const host of ['a b', '[bad', 'x:99999', '%zz']) {
      for (const url of ['/api/stac/search?limit=1', '/api/stac/collections', '/api/stac']) {
        const r = await own.app.inject({ method: 'GET', url, headers: { host } });
        expect(r.statusCode, `${host} ${url}`).toBe(400);
        expect(JSON.parse(r.body)).toEqual({ code: 'InvalidRequest', description: expect.stringContaining('Host header') });
      }
    }
    expect((await own.app.inject({ method: 'GET', url: '/api/stac/search?limit=1', headers: { host: 'stac.example.org:8080' } })).statusCode).toBe(200);
    await own.app.close();
  });
});
