// A connection stays usable after an answer sent before the request's body was read: an upload refused
// (409: the file has content, no overwrite; 404: no such file; 400: a bad name) must not leave the
// rest of its body unread, which stalled the connection's next request until the keep-alive timeout.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let raw = '';
let tabular = '';
beforeAll(async () => {
  s = await startTestServer();
  raw = (await s.json('POST', '/catalog', { json: manifests.dataset('keep-alive-raw', 'raw') })).body.metadata.uuid;
  tabular = (await s.json('POST', '/catalog', { json: manifests.dataset('keep-alive-tab', 'tabular') })).body.metadata.uuid;
  expect((await s.req('POST', `/data/${raw}`, { json: { name: 'f.bin' } })).status).toBe(200);
  expect((await s.req('PATCH', `/data/${raw}/f.bin`, { headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(10) })).status).toBe(200);
});
afterAll(() => s.close());

// one request on the agent's single keep-alive socket: status, and whether the socket was a reused one
function send(agent: Agent, method: string, path: string, body?: Buffer): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const r = request(`${s.url}${path}`, { method, agent, headers: { authorization: `ApiKey ${s.adminKey}`, ...(body ? { 'content-type': 'application/octet-stream', 'content-length': body.length } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, reused: r.reusedSocket }));
    });
    r.setTimeout(5000, () => r.destroy(new Error(`${method} ${path}: no answer in 5 s`)));
    r.on('error', reject);
    r.end(body);
  });
}

describe('a keep-alive connection after an upload refused before its body was read', () => {
  it('answers the next request at once (409, 404 and a refused raw upload beside a table)', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = Buffer.alloc(1 << 20, 7);
      const refusals: [string, string, number][] = [
        ['PATCH', `/data/${raw}/f.bin`, 409],
        ['PATCH', `/data/${raw}/nope.bin`, 404],
        ['POST', `/api/table/v2/raw/upload?table_id=${tabular}&name=%2Fabs`, 400],
      ];
      for (const [method, path, status] of refusals) {
        expect((await send(agent, method, path, big)).status).toBe(status);
        const next = await send(agent, 'GET', '/health');
        expect(next).toEqual({ status: 200, reused: true });
      }
    } finally {
      agent.destroy();
    }
  });
});
