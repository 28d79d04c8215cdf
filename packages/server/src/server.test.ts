// startServer: limits, graceful shutdown (an in-flight download finishes; new requests are refused),
// and the engine's background failures in the log.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Field, Float64, Int32, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { startServer } from './server.js';
import { manifests, startTestServer } from './test-util/server.js';

describe('startServer', () => {
  it('413 for a JSON body above bodyLimit, and the store is unchanged', async () => {
    const s = await startTestServer({ bodyLimit: 2048 });
    try {
      const m = manifests.dataset('big', 'raw', { facets: { text: 'x'.repeat(4096) } });
      const res = await s.json('POST', '/catalog', { json: m });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('PayloadTooLarge');
      expect(res.body.description).toBe('the request body is larger than the limit of 2048 bytes');
      // the same in tabular v2's plain-text errors
      const v2 = await s.req('POST', '/api/table/v2/sdk/select?table_id=00000000-0000-4000-8000-000000000000', { json: { query: 'x'.repeat(4096) } });
      expect(v2.status).toBe(413);
      expect(await v2.text()).toBe('the request body is larger than the limit of 2048 bytes');
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

  it('logs a failure of the engine\'s background work as an error (compaction meeting a damaged partition file)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'halocline-server-'));
    const lines: string[] = [];
    // a part writer thread (workers > 0): compaction's merge reads its inputs from their files
    const server = await startServer({ port: 0, host: '127.0.0.1', workers: 1, config: { dataDir, logger: { level: 'info', stream: { write: (l: string) => void lines.push(l) } } } });
    try {
      const t = server.store.table('bg');
      await t.create(new Schema([new Field('k', new Int32(), false), new Field('x', new Float64(), true)]));
      const rows = (b: number) => Array.from({ length: 1000 }, (_, i) => ({ k: b * 1000 + i, x: i / 3 }));
      for (let b = 0; b < 3; b++) await t.insert(rows(b));
      await server.store.idle();
      const files = (await readdir(join(dataDir, 'parts'), { recursive: true })).filter((f) => f.endsWith('.hlp'));
      expect(files).toHaveLength(3);
      await truncate(join(dataDir, 'parts', files[0]!), 40);
      // a fourth partition of the same size: compaction merges the four and reads the damaged one
      await t.insert(rows(3));
      await server.store.idle();
      const failures = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'engine background work failed');
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ level: 50, task: expect.stringContaining('compact bg'), err: { code: 'Corrupt', message: expect.stringContaining(files[0]!) } });
      // the damaged file is left out of compaction from then on: no second report
      await t.insert(rows(4));
      await server.store.idle();
      expect(lines.filter((l) => l.includes('engine background work failed'))).toHaveLength(1);
    } finally {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
