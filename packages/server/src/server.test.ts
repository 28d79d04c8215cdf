// startServer: limits and graceful shutdown (an in-flight download finishes; new requests are refused).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { manifests, startTestServer } from './test-util/server.js';

describe('startServer', () => {
  it('413 for a JSON body above bodyLimit, and the store is unchanged', async () => {
    const s = await startTestServer({ bodyLimit: 2048 });
    try {
      const m = manifests.dataset('big', 'raw', { facets: { text: 'x'.repeat(4096) } });
      const res = await s.json('POST', '/catalog', { json: m });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('PayloadTooLarge');
      expect((await s.json('POST', '/catalog/list', { json: {} })).body.num_results).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('close() lets an in-flight download finish, then refuses connections', async () => {
    const s = await startTestServer();
    const ds = (await s.json('POST', '/catalog', { json: manifests.dataset('dl') })).body.metadata.uuid;
    await s.json('POST', `/data/${ds}`, { json: { name: 'f' } });
    const bytes = Buffer.alloc(32 << 20, 7);
    await s.req('PATCH', `/data/${ds}/f`, { body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    const res = await s.req('GET', `/data/${ds}/f`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    const closing = s.close();
    const hash = createHash('sha256').update(first.value!);
    let n = first.value!.length;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      hash.update(r.value);
      n += r.value.length;
    }
    await closing;
    expect(n).toBe(bytes.length);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    await expect(fetch(`${s.url}/health`)).rejects.toThrow();
  });
});
