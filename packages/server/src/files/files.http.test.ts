// Raw file datasets over HTTP: entries, streamed upload and download (Range, ETag), metadata, list, limits.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gatedBody } from '../test-util/gated-body.js';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let uuid: string;
const ref = '/data/catalog.example.io/dataset/files-ds';
const LIMIT = 200 * 1024 * 1024;

beforeAll(async () => {
  s = await startTestServer({ uploadLimit: LIMIT });
  uuid = (await s.json('POST', '/catalog', { json: manifests.dataset('files-ds'), key: s.aliceKey })).body.metadata.uuid;
  await s.json('POST', '/catalog', { json: manifests.dataset('tab-ds', 'tabular'), key: s.aliceKey });
});
afterAll(() => s.close());

const octets = (body: NonNullable<RequestInit['body']>) => ({ key: s.aliceKey, body, headers: { 'content-type': 'application/octet-stream' } });

describe('entries and content', () => {
  it('create → upload → download, by name reference and by uuid', async () => {
    const created = await s.json('POST', ref, { key: s.aliceKey, json: { name: 'cast 1.csv', mime_type: 'text/csv', metadata: { station: 'A', depth: 10 } } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'cast 1.csv', mime_type: 'text/csv', dataset: uuid, size_bytes: 0, checksum: null, metadata: { station: 'A' } });
    expect((await s.json('POST', ref, { key: s.aliceKey, json: { name: 'cast 1.csv' } })).status).toBe(409);
    expect((await s.req('GET', `/data/${uuid}/${encodeURIComponent('cast 1.csv')}`)).status).toBe(404);
    const up = await s.json('PATCH', `/data/${uuid}/${encodeURIComponent('cast 1.csv')}`, octets('depth,temp\n1,2\n'));
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ size_bytes: 15, checksum: createHash('sha256').update('depth,temp\n1,2\n').digest('hex') });
    const again = await s.json('PATCH', `${ref}/${encodeURIComponent('cast 1.csv')}`, octets('x'));
    expect(again.status).toBe(409);
    const over = await s.json('PATCH', `${ref}/${encodeURIComponent('cast 1.csv')}?overwrite=true`, octets('depth,temp\n3,4\n'));
    expect(over.body.size_bytes).toBe(15);
    const dl = await s.req('GET', `${ref}/${encodeURIComponent('cast 1.csv')}`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-type')).toBe('text/csv');
    expect(await dl.text()).toBe('depth,temp\n3,4\n');
    const etag = dl.headers.get('etag')!;
    expect((await s.req('GET', `${ref}/${encodeURIComponent('cast 1.csv')}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('Range requests: 206 with Content-Range, suffix ranges, 416 outside', async () => {
    await s.json('POST', ref, { key: s.aliceKey, json: { name: 'digits' } });
    await s.req('PATCH', `${ref}/digits`, octets('0123456789'));
    const mid = await s.req('GET', `${ref}/digits`, { headers: { range: 'bytes=2-5' } });
    expect(mid.status).toBe(206);
    expect(mid.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await mid.text()).toBe('2345');
    expect(await (await s.req('GET', `${ref}/digits`, { headers: { range: 'bytes=-3' } })).text()).toBe('789');
    expect(await (await s.req('GET', `${ref}/digits`, { headers: { range: 'bytes=7-' } })).text()).toBe('789');
    const outside = await s.req('GET', `${ref}/digits`, { headers: { range: 'bytes=20-30' } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe('bytes */10');
    // a URL-encoded reference works too
    expect(await (await s.req('GET', `/data/${encodeURIComponent('catalog.example.io/dataset/files-ds')}/digits`)).text()).toBe('0123456789');
  });

  it('a large upload and download stream through (64 MiB), content intact', async () => {
    await s.json('POST', ref, { key: s.aliceKey, json: { name: 'big.bin' } });
    const chunk = Buffer.alloc(1 << 20);
    const hash = createHash('sha256');
    const gen = Readable.from((function* () {
      for (let i = 0; i < 64; i++) {
        chunk.fill(i);
        hash.update(chunk);
        yield Buffer.from(chunk);
      }
    })());
    const up = await s.json('PATCH', `${ref}/big.bin`, octets(Readable.toWeb(gen) as ReadableStream));
    expect(up.status).toBe(200);
    expect(up.body.size_bytes).toBe(64 << 20);
    const digest = hash.digest('hex');
    expect(up.body.checksum).toBe(digest);
    const dl = await s.req('GET', `${ref}/big.bin`);
    const back = createHash('sha256');
    let n = 0;
    for await (const part of dl.body as unknown as AsyncIterable<Uint8Array>) {
      back.update(part);
      n += part.length;
    }
    expect(n).toBe(64 << 20);
    expect(back.digest('hex')).toBe(digest);
  });

  it('413 above the upload limit (declared or streamed), and nothing is stored', async () => {
    const small = await startTestServer({ uploadLimit: 1000 });
    try {
      const ds = (await small.json('POST', '/catalog', { json: manifests.dataset('small') })).body.metadata.uuid;
      await small.json('POST', `/data/${ds}`, { json: { name: 'huge' } });
      const declared = await small.json('PATCH', `/data/${ds}/huge`, { body: Buffer.alloc(5000), headers: { 'content-type': 'application/octet-stream' } });
      expect(declared.status).toBe(413);
      const streamed = Readable.from((function* () {
        for (let i = 0; i < 5; i++) yield Buffer.alloc(1000);
      })());
      const chunked = await small.json('PATCH', `/data/${ds}/huge`, { body: Readable.toWeb(streamed) as ReadableStream, headers: { 'content-type': 'application/octet-stream' } });
      expect(chunked.status).toBe(413);
      expect(chunked.body.code).toBe('PayloadTooLarge');
      expect((await small.json('GET', `/data/${ds}/huge/metadata`)).body.size_bytes).toBe(0);
      const { readdir } = await import('node:fs/promises');
      expect(await readdir(`${small.dataDir}/raw/${ds}`)).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

describe('uploads racing each other and a delete', () => {
  const MiB = 1 << 20;
  const upload = (name: string, fill: number, query = '') => {
    const gated = gatedBody(Buffer.alloc(32 * MiB, fill), 31 * MiB);
    const res = s.req('PATCH', `${ref}/${name}${query}`, { ...octets(gated.body), headers: { 'content-type': 'application/octet-stream' } });
    return { ...gated, res };
  };
  const blobs = async () => (await readdir(join(s.dataDir, 'raw', uuid))).filter((f) => !f.startsWith('.tmp-'));

  it('of two concurrent uploads without overwrite one wins and the other is a 409; the bytes match the metadata', async () => {
    await s.json('POST', ref, { key: s.aliceKey, json: { name: 'race.bin' } });
    const before = (await blobs()).length;
    const a = upload('race.bin', 0x61);
    const b = upload('race.bin', 0x62);
    await Promise.all([a.reading, b.reading]);
    a.release();
    b.release();
    const statuses = [(await a.res).status, (await b.res).status].sort();
    expect(statuses).toEqual([200, 409]);
    const meta = (await s.json('GET', `${ref}/race.bin/metadata`)).body;
    const bytes = Buffer.from(await (await s.req('GET', `${ref}/race.bin`)).arrayBuffer());
    expect(bytes.length).toBe(meta.size_bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(meta.checksum);
    expect((await blobs()).length).toBe(before + 1);
  });

  it('an upload whose file is deleted meanwhile answers 404 and leaves no blob behind', async () => {
    await s.json('POST', ref, { key: s.aliceKey, json: { name: 'gone.bin' } });
    const before = await blobs();
    const up = upload('gone.bin', 0x63);
    await up.reading;
    expect((await s.req('DELETE', `${ref}/gone.bin`, { key: s.aliceKey })).status).toBe(204);
    up.release();
    expect((await up.res).status).toBe(404);
    expect(await blobs()).toEqual(before);
  });

  it('an upload whose dataset is deleted meanwhile answers 404 (not a 500 for the vanished directory)', async () => {
    const other = (await s.json('POST', '/catalog', { json: manifests.dataset('short-lived'), key: s.aliceKey })).body.metadata.uuid as string;
    await s.json('POST', `/data/${other}`, { key: s.aliceKey, json: { name: 'f.bin' } });
    const gated = gatedBody(Buffer.alloc(32 * MiB, 1), 31 * MiB);
    const res = s.req('PATCH', `/data/${other}/f.bin`, { ...octets(gated.body), headers: { 'content-type': 'application/octet-stream' } });
    await gated.reading;
    expect((await s.req('DELETE', `/catalog/${other}`, { key: s.aliceKey })).status).toBe(204);
    gated.release();
    const up = await res;
    expect(up.status).toBe(404);
    expect(((await up.json()) as { code: string }).code).toBe('NotFound');
  });

  it('an overwrite replaces the blob: the old one is removed', async () => {
    await s.json('POST', ref, { key: s.aliceKey, json: { name: 'twice.bin' } });
    expect((await s.req('PATCH', `${ref}/twice.bin`, octets('one'))).status).toBe(200);
    const before = (await blobs()).length;
    expect((await s.req('PATCH', `${ref}/twice.bin?overwrite=true`, octets('two'))).status).toBe(200);
    expect((await blobs()).length).toBe(before);
    expect(await (await s.req('GET', `${ref}/twice.bin`)).text()).toBe('two');
  });
});

describe('metadata, delete, list', () => {
  it('updates name, mime_type, metadata and a validated geo_location', async () => {
    await s.json('POST', ref, { key: s.aliceKey, json: { name: 'm.txt' } });
    const bad = await s.json('PATCH', `${ref}/m.txt/metadata`, { key: s.aliceKey, json: { geo_location: { type: 'Feature', geometry: { type: 'Point', coordinates: [200, 0] } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.description).toMatch(/^geo_location: .*outside/);
    expect((await s.json('PATCH', `${ref}/m.txt/metadata`, { key: s.aliceKey, json: { colour: 'red' } })).body.description).toMatch(/^colour: unknown/);
    expect((await s.json('PATCH', `${ref}/m.txt/metadata`, { key: s.aliceKey, json: { name: '/abs' } })).body.description).toMatch(/^name: must not start/);
    const feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [5, 60] }, properties: { site: 'x' } };
    const ok = await s.json('PATCH', `${ref}/m.txt/metadata`, { key: s.aliceKey, json: { name: 'n.txt', mime_type: 'text/plain', metadata: { a: 1 }, geo_location: feature } });
    expect(ok.body).toMatchObject({ name: 'n.txt', mime_type: 'text/plain', metadata: { a: 1 }, geo_location: feature });
    expect((await s.req('GET', `${ref}/m.txt/metadata`)).status).toBe(404);
    expect((await s.json('PATCH', `${ref}/n.txt/metadata`, { key: s.aliceKey, json: { name: 'digits' } })).status).toBe(409);
    expect((await s.json('PATCH', `${ref}/n.txt/metadata`, { key: s.bobKey, json: { mime_type: 'text/csv' } })).status).toBe(403);
  });

  it('refuses the names "." and "..", which no URL can address (clients resolve them as dot segments)', async () => {
    for (const name of ['.', '..']) {
      const res = await s.json('POST', ref, { key: s.aliceKey, json: { name } });
      expect(res.status).toBe(400);
      expect(res.body.description).toMatch(/cannot be used in a URL/);
    }
    expect((await s.json('POST', ref, { key: s.aliceKey, json: { name: '...' } })).status).toBe(200);
  });

  it('refuses a mime_type that could not be sent back as a Content-Type (line breaks, non-ASCII, over 255 characters)', async () => {
    for (const mime_type of ['text/plain\r\n; a=b', 'text/plain; a\nX-Evil: 1', 'text/plain; charset=\u00fc', `text/plain; ${'x'.repeat(300)}`]) {
      const res = await s.json('POST', ref, { key: s.aliceKey, json: { name: 'mime.txt', mime_type } });
      expect(res.status, mime_type).toBe(400);
      expect(res.body.description).toMatch(/^mime_type: expected a MIME type/);
    }
    expect((await s.json('POST', ref, { key: s.aliceKey, json: { name: 'mime.txt', mime_type: 'text/csv; charset=utf-8' } })).status).toBe(200);
  });

  it('deletes a file', async () => {
    await s.json('POST', ref, { key: s.aliceKey, json: { name: 'gone' } });
    await s.req('PATCH', `${ref}/gone`, octets('bye'));
    expect((await s.req('DELETE', `${ref}/gone`, { key: s.bobKey })).status).toBe(403);
    expect((await s.req('DELETE', `${ref}/gone`, { key: s.aliceKey })).status).toBe(204);
    expect((await s.req('GET', `${ref}/gone`)).status).toBe(404);
    expect((await s.req('DELETE', `${ref}/gone`, { key: s.aliceKey })).status).toBe(404);
  });

  it('lists with {metadata: {k: v}}, OQS, and cursor paging', async () => {
    for (let i = 0; i < 7; i++) await s.json('POST', ref, { key: s.aliceKey, json: { name: `p${i}`, metadata: { batch: 'p', i } } });
    const byMeta = await s.json('POST', `${ref}/list`, { json: { metadata: { batch: 'p', i: 3 } } });
    expect(byMeta.body.results.map((r: { name: string }) => r.name)).toEqual(['p3']);
    const oqs = await s.json('POST', `${ref}/list`, { json: { '#AND': [{ '#EQUALS': ['$metadata.batch', 'p'] }, { '#GREATER_THAN': ['$metadata.i', 4] }] } });
    expect(oqs.body.results.map((r: { name: string }) => r.name)).toEqual(['p5', 'p6']);
    const names: string[] = [];
    let next: string | null = null;
    do {
      const page: { body: { results: { name: string }[]; next: string | null } } = await s.json('POST', `${ref}/list?page_size=3${next ? `&page=${next}` : ''}`, { json: { metadata: { batch: 'p' } } });
      names.push(...page.body.results.map((r) => r.name));
      next = page.body.next;
    } while (next);
    expect(names).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
    expect((await s.json('POST', `${ref}/list?page=x`, { json: {} })).status).toBe(400);
  });

  it('raw routes on a tabular dataset, and tabular routes on a raw one, are 400 naming the class', async () => {
    const r1 = await s.json('GET', '/data/catalog.example.io/dataset/tab-ds/x/metadata');
    expect(r1.status).toBe(400);
    expect(r1.body.description).toContain('registry.example.io/storageClass/tabular');
    const r2 = await s.json('POST', `${ref}/schema`, { key: s.aliceKey, json: { table_schema: { a: { type: 'int32' } } } });
    expect(r2.status).toBe(400);
    expect(r2.body.description).toContain('registry.example.io/storageClass/raw');
    expect((await s.json('GET', '/data/00000000-0000-0000-0000-000000000000/x')).status).toBe(404);
  });

  it('deleting the dataset removes its files', async () => {
    const ds = (await s.json('POST', '/catalog', { json: manifests.dataset('short-lived'), key: s.aliceKey })).body;
    await s.json('POST', `/data/${ds.metadata.uuid}`, { key: s.aliceKey, json: { name: 'f' } });
    await s.req('PATCH', `/data/${ds.metadata.uuid}/f`, octets('abc'));
    expect((await s.req('DELETE', `/catalog/${ds.metadata.uuid}`, { key: s.aliceKey })).status).toBe(204);
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(`${s.dataDir}/raw`)).not.toContain(ds.metadata.uuid);
    await s.json('POST', '/catalog', { json: manifests.dataset('short-lived'), key: s.aliceKey });
    expect((await s.json('POST', '/data/catalog.example.io/dataset/short-lived/list', { json: {} })).body.results).toEqual([]);
  });
});
