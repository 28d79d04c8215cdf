// Hostile input: deep nesting in bodies and filters, huge values — always a 4xx, never a 500 or a crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, get, post, stacApp, type TestApp } from '../../test-util/app.js';
import { dataset } from '../../test-util/catalog.js';

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
