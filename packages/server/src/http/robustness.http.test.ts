// Request-level robustness over HTTP: hostile bodies, URLs and headers get a 4xx {code, description} and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const json = { 'content-type': 'application/json' };
const nested = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('deeply nested JSON bodies', () => {
  it('an OQS filter of 100 000 nested arrays is a 400 naming the limit, not a stack overflow', async () => {
    const res = await s.json('POST', '/catalog/list', { headers: json, body: '['.repeat(100_000) + ']'.repeat(100_000) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'BadRequest', description: expect.stringMatching(/nests deeper than 128 arrays and objects/) });
  });

  it('a manifest with a deeply nested extra spec field is a 400 and creates nothing', async () => {
    const text = JSON.stringify(manifests.dataset('deep-spec')).replace('"maintainer"', `"extra":${nested(20_000)},"maintainer"`);
    expect((await s.json('POST', '/catalog', { headers: json, body: text })).status).toBe(400);
    expect((await s.json('GET', '/catalog/catalog.example.io/dataset/deep-spec')).status).toBe(404);
  });

  it('nesting within the limit is accepted', async () => {
    const text = JSON.stringify(manifests.dataset('nested-ok')).replace('"maintainer"', `"extra":${nested(100)},"maintainer"`);
    expect((await s.json('POST', '/catalog', { headers: json, body: text })).status).toBe(201);
  });
});

describe('JSON bodies that do not parse', () => {
  it('a syntax error is a 400 naming the token and its context; a __proto__ key is a 400 saying so', async () => {
    const bad = await s.json('POST', '/catalog', { headers: json, body: '{"kind": "catalog.example.io/dataset", "version": v1alpha3}' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'BadRequest', description: expect.stringMatching(/^the body is not valid JSON: Unexpected token 'v'.*v1alpha3/) });
    const proto = await s.json('POST', '/catalog/list', { headers: json, body: '{"metadata": {"__proto__": {"admin": true}}}' });
    expect(proto.status).toBe(400);
    expect(proto.body.description).toMatch(/"__proto__"/);
  });
});

describe('content types', () => {
  it('reads JSON whatever the case of its media type', async () => {
    const res = await s.json('POST', '/catalog/list', { headers: { 'content-type': 'Application/JSON; Charset=UTF-8' }, body: '{}' });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual(expect.any(Array));
  });
});

describe('URLs the router refuses', () => {
  it('a path segment over 1024 characters is a 414 {code, description}, in the API and in STAC', async () => {
    for (const path of [`/catalog/${'a'.repeat(2000)}`, `/api/stac/collections/${'z'.repeat(2000)}`]) {
      const res = await s.json('GET', path, { key: null });
      expect(res.status).toBe(414);
      expect(res.body).toEqual({ code: 'UriTooLong', description: expect.stringMatching(/longer than 1024 characters/) });
      expect(res.body.description.length).toBeLessThan(300);
    }
  });

  it('malformed percent-encoding in the path is a 400 {code, description}', async () => {
    const res = await s.json('GET', '/catalog/%zz');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'BadRequest', description: expect.stringMatching(/malformed percent-encoding/) });
  });
});
