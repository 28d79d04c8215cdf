// The client against a real server (catalog, files, client credentials) and a scripted fetch (retries, refresh, errors).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HaloclineError } from '@halocline/engine';
import { Field, Float64, Schema, tableFromArrays } from 'apache-arrow';
import { type RunningServer, startServer } from '@halocline/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ClientError, type Manifest } from './index.js';

let server: RunningServer;
let dir: string;
let key: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'halocline-client-'));
  server = await startServer({ port: 0, host: '127.0.0.1', workers: 1, config: { logger: false, dataDir: dir } });
  key = (await server.app.halocline.access.createApiKey('carol', false)).key;
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const dataset = (name: string, storage = 'raw'): Manifest => ({
  kind: 'catalog.example.io/dataset',
  version: 'v1alpha3',
  metadata: { name },
  spec: {
    storage_controller: `registry.example.io/storageController/${storage === 'raw' ? 'storage-raw-cdffs' : 'storage-tabular'}`,
    storage_class: `registry.example.io/storageClass/${storage}`,
    maintainer: { contact: 'Ada <ada@example.org>', organisation: 'Halocline' },
  },
});

describe('catalog and files against a server', () => {
  it('creates, gets by UUID and kind/name, updates, lists in pages, deletes', async () => {
    const c = new Client({ baseUrl: server.url, apiKey: key });
    const created = await c.catalog.create(dataset('client-a'));
    const uuid = created.metadata.uuid!;
    expect((await c.catalog.get(uuid)).metadata.name).toBe('client-a');
    expect((await c.catalog.get('catalog.example.io/dataset/client-a')).metadata.uuid).toBe(uuid);
    const updated = await c.catalog.update({ ...created, metadata: { ...created.metadata, display_name: 'A' } });
    expect(updated.metadata.display_name).toBe('A');
    for (const n of ['client-b', 'client-c']) await c.catalog.create(dataset(n));
    const names: string[] = [];
    for await (const m of c.catalog.list({ '#EQUALS': ['$kind', 'catalog.example.io/dataset'] }, 1)) names.push(m.metadata.name);
    expect(names).toEqual(expect.arrayContaining(['client-a', 'client-b', 'client-c']));
    await c.catalog.delete(uuid);
    await expect(c.catalog.get(uuid)).rejects.toMatchObject({ code: 'NotFound' });
    await expect(c.catalog.create(dataset('client-b'))).rejects.toMatchObject({ code: 'Conflict' }); // name exists (409)
    await expect(new Client({ baseUrl: server.url, apiKey: 'Sk_wrong' }).catalog.get(uuid)).rejects.toBeInstanceOf(ClientError);
  });

  it('files: create, upload, metadata, download, list, delete', async () => {
    const c = new Client({ baseUrl: server.url, apiKey: key });
    await c.catalog.create(dataset('client-files'));
    const f = c.files('catalog.example.io/dataset/client-files');
    await f.create({ name: 'a.txt', mime_type: 'text/plain' });
    await f.upload('a.txt', new TextEncoder().encode('hello'));
    expect(new TextDecoder().decode(await f.download('a.txt'))).toBe('hello');
    expect((await f.metadata('a.txt')).size_bytes).toBe(5);
    await f.updateMetadata('a.txt', { metadata: { k: 1 } });
    const listed = [];
    for await (const m of f.list()) listed.push(m.name);
    expect(listed).toEqual(['a.txt']);
    await f.delete('a.txt');
    await expect(f.metadata('a.txt')).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('client credentials: fetches a token from /oauth2/token and uses it', async () => {
    const { clientId, clientSecret } = await server.app.halocline.access.createClient('svc', false);
    const c = new Client({ baseUrl: server.url, clientId, clientSecret });
    const m = await c.catalog.create(dataset('client-cc', 'tabular'));
    const t = c.table(m.metadata.uuid!);
    expect(await t.schema()).toBeUndefined();
  });
});

describe('a table that does not exist', () => {
  it('is NotFound for the files beside it, which the server answers with a bodiless 204', async () => {
    const t = new Client({ baseUrl: server.url, apiKey: key }).table('00000000-0000-4000-8000-000000000000');
    const notFound = { code: 'NotFound', message: 'table "00000000-0000-4000-8000-000000000000" does not exist' };
    await expect(t.raw.list()).rejects.toMatchObject(notFound);
    await expect(t.raw.upload('a.csv', new TextEncoder().encode('x\n1\n'))).rejects.toMatchObject(notFound);
    await expect(t.raw.updateMeta('a.csv', { properties: { k: 'v' } })).rejects.toMatchObject(notFound);
    await expect(t.raw.download('a.csv')).rejects.toMatchObject(notFound);
    await expect(t.raw.ingest('a.csv')).rejects.toMatchObject(notFound);
    await expect(t.raw.ingest('a.csv', { onProgress: () => {} })).rejects.toMatchObject(notFound);
    await expect(t.raw.delete('a.csv')).rejects.toMatchObject(notFound);
  });
});

describe('remote replace left by a throw', () => {
  it("keeps the caller's error when putting the unreached rows back fails, with the restore failure attached", async () => {
    const c = new Client({ baseUrl: server.url, apiKey: key });
    const t = c.table((await c.catalog.create(dataset('client-replace-throw', 'tabular'))).metadata.uuid!);
    await t.create(new Schema([new Field('v', new Float64(), false)]));
    await t.insert(tableFromArrays({ v: Float64Array.from({ length: 100 }, (_, i) => i) }));
    const tx = await t.begin();
    const rows = tx.replace('v >= 0');
    expect((await rows.next()).done).toBe(false);
    // the server forgets the transaction behind the client's back: the restore's insert must fail
    const gone = await fetch(`${server.url}/api/table/v2/rollback?table_id=${t.tableId}&tx_id=${tx.txId}`, { method: 'POST', headers: { authorization: `ApiKey ${key}` } });
    expect(gone.ok).toBe(true);
    const mine = new Error('the caller gave up', { cause: undefined }); // an own, empty cause (as HaloclineError.with() leaves) is filled too
    const thrown = await rows.throw(mine).catch((e: unknown) => e);
    expect(thrown).toBe(mine);
    expect((thrown as { cause?: unknown }).cause).toBeInstanceOf(Error);
    expect((thrown as { restoreError?: unknown }).restoreError).toBe((thrown as { cause?: unknown }).cause);
    // without an error of the caller's, the restore failure is what surfaces
    const tx2 = await t.begin();
    const rows2 = tx2.replace('v >= 0');
    await rows2.next();
    await fetch(`${server.url}/api/table/v2/rollback?table_id=${t.tableId}&tx_id=${tx2.txId}`, { method: 'POST', headers: { authorization: `ApiKey ${key}` } });
    await expect(rows2.return(undefined)).rejects.toBeInstanceOf(Error);
    expect(await t.select().count()).toBe(100);
  });
});

/** A fetch answering from a script; records the calls. */
function scripted(answers: (url: string, init: RequestInit) => Response) {
  const calls: { url: string; method: string }[] = [];
  const f = (async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? 'GET' });
    return answers(url, init);
  }) as unknown as typeof fetch;
  return { f, calls };
}
const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('transport', () => {
  it('retries reads on 429/502/503/504 with backoff, writes only on 429', async () => {
    let n = 0;
    const { f, calls } = scripted(() => (++n <= 3 ? new Response('busy', { status: [503, 502, 429][n - 1]! }) : ok({ metadata: { name: 'x' } })));
    const c = new Client({ baseUrl: 'http://h', apiKey: 'k', fetch: f, backoffMs: 1 });
    expect((await c.catalog.get('catalog.example.io/dataset/x')).metadata.name).toBe('x');
    expect(calls).toHaveLength(4);
    const w = scripted(() => new Response('down', { status: 503 }));
    const cw = new Client({ baseUrl: 'http://h', apiKey: 'k', fetch: w.f, backoffMs: 1 });
    await expect(cw.catalog.create(dataset('y'))).rejects.toMatchObject({ status: 503 });
    expect(w.calls).toHaveLength(1);
    let m = 0;
    const w2 = scripted(() => (++m === 1 ? new Response('slow down', { status: 429, headers: { 'retry-after': '0' } }) : ok({ metadata: { name: 'y' } })));
    await new Client({ baseUrl: 'http://h', apiKey: 'k', fetch: w2.f }).catalog.create(dataset('y'));
    expect(w2.calls).toHaveLength(2);
  });

  it('maps plain-text 400s with an engine code back to HaloclineError', async () => {
    const { f } = scripted(() => new Response('unexpected token ">" at 6', { status: 400, headers: { 'x-halocline-error': 'QuerySyntax', 'content-type': 'text/plain' } }));
    const c = new Client({ baseUrl: 'http://h', apiKey: 'k', fetch: f });
    const e = await c.table('t').select('a >> 1').all().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HaloclineError);
    expect(e).toMatchObject({ code: 'QuerySyntax', message: 'unexpected token ">" at 6' });
  });

  it('a select over plain http (DirectHttp) retries 503s, maps a 400 with its code and reads the batches', async () => {
    const { createServer } = await import('node:http');
    const { tableToIPC } = await import('apache-arrow');
    const ipc = tableToIPC(tableFromArrays({ a: Float64Array.from([1, 2, 3]) }), 'stream');
    const seen: string[] = [];
    let n = 0;
    const stub = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        seen.push(`${req.headers.authorization} ${JSON.parse(body).query}`);
        if (++n === 1) return void res.writeHead(503, { 'retry-after': '0' }).end('busy');
        if (JSON.parse(body).query === 'bad') return void res.writeHead(400, { 'content-type': 'text/plain', 'x-halocline-error': 'QuerySyntax' }).end('unexpected token "bad"');
        res.writeHead(200, { 'content-type': 'application/vnd.apache.arrow.stream' }).end(ipc);
      });
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    try {
      const c = new Client({ baseUrl: `http://127.0.0.1:${(stub.address() as { port: number }).port}`, apiKey: 'k', backoffMs: 1 });
      const rows = await c.table('t').select('a > 0').all();
      expect(rows.map((r) => r.a)).toEqual([1, 2, 3]);
      expect(seen).toEqual(['ApiKey k a > 0', 'ApiKey k a > 0']);
      await expect(c.table('t').select('bad').all()).rejects.toMatchObject({ code: 'QuerySyntax', message: 'unexpected token "bad"' });
    } finally {
      await new Promise((r) => stub.close(r));
    }
  });

  it('refreshes a client-credentials token shortly before it expires', async () => {
    let tokens = 0;
    const { f, calls } = scripted((url) => (url.endsWith('/oauth2/token') ? ok({ access_token: `t${++tokens}`, expires_in: 30 }) : ok({ metadata: { name: 'x' } })));
    const c = new Client({ baseUrl: 'http://h', clientId: 'id', clientSecret: 's', fetch: f });
    await c.catalog.get('catalog.example.io/dataset/x');
    await c.catalog.get('catalog.example.io/dataset/x');
    expect(calls.filter((x) => x.url.endsWith('/oauth2/token'))).toHaveLength(2); // a 30 s lifetime is inside the 60 s refresh margin
    const long = scripted((url) => (url.endsWith('/oauth2/token') ? ok({ access_token: 'T', expires_in: 3600 }) : ok({ metadata: { name: 'x' } })));
    const c2 = new Client({ baseUrl: 'http://h', clientId: 'id', clientSecret: 's', fetch: long.f });
    await c2.catalog.get('catalog.example.io/dataset/x');
    await c2.catalog.get('catalog.example.io/dataset/x');
    expect(long.calls.filter((x) => x.url.endsWith('/oauth2/token'))).toHaveLength(1);
  });
});
