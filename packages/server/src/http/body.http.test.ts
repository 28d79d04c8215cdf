// Form bodies over HTTP: read only where a route takes them (the token endpoint, 64 KiB); elsewhere the route's own 415.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let file: string;
beforeAll(async () => {
  s = await startTestServer();
  const ds = (await s.json('POST', '/catalog', { json: manifests.dataset('form-ds') })).body.metadata.uuid as string;
  await s.json('POST', `/data/${ds}`, { json: { name: 'f.bin' } });
  file = `/data/${ds}/f.bin`;
});
afterAll(() => s.close());

// what curl --data-binary sends without -H
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const KIB = 1024;

describe('form bodies', () => {
  it('an upload sent as a form is the same 415 whatever its size (not a 413 past the form limit)', async () => {
    const expected = { code: 'UnsupportedMediaType', description: 'upload the bytes with Content-Type application/octet-stream, got application/x-www-form-urlencoded' };
    for (const size of [KIB, 65 * KIB, 1024 * KIB]) {
      const res = await s.json('PATCH', file, { body: Buffer.alloc(size, 'a'), headers: form });
      expect({ size, status: res.status, body: res.body }).toEqual({ size, status: 415, body: expected });
    }
    expect((await s.json('GET', `${file}/metadata`)).body.size_bytes).toBe(0);
  });

  it('a JSON route answers a large form body with its 415 too', async () => {
    const res = await s.json('POST', '/catalog/list', { body: `a=${'b'.repeat(100 * KIB)}`, headers: form });
    expect(res.status).toBe(415);
    expect(res.body.description).toBe('expected Content-Type application/json, got application/x-www-form-urlencoded');
  });

  it('the token endpoint reads its form, and refuses one over 64 KiB with a 413', async () => {
    const { clientId, clientSecret } = await s.server.app.halocline.access.createClient('form-client', false);
    const fields = { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret };
    const ok = await s.json('POST', '/oauth2/token', { key: null, body: new URLSearchParams(fields).toString(), headers: form });
    expect(ok.status).toBe(200);
    const big = await s.json('POST', '/oauth2/token', { key: null, body: new URLSearchParams({ ...fields, pad: 'x'.repeat(65 * KIB) }).toString(), headers: form });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PayloadTooLarge');
    // sent in chunks, without a Content-Length: cut off once past the limit
    const chunks = Readable.from((function* () {
      yield new URLSearchParams(fields).toString();
      for (let i = 0; i < 80; i++) yield `&pad${i}=${'x'.repeat(KIB)}`;
    })());
    const streamed = await s.json('POST', '/oauth2/token', { key: null, body: Readable.toWeb(chunks) as ReadableStream, headers: form });
    expect(streamed.status).toBe(413);
  });
});
