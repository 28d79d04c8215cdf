// Raw files whose names hold "/", addressed as odp-sdk-python writes them: unencoded in the path
// (`/data/{ref}/dir/a%20b.txt/metadata`), by either dataset reference; the encoded form keeps working,
// a trailing "metadata" follows the rule of paths.ts, and the tabular paths keep their meaning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let uuid: string;
let tab: string;
const byName = '/data/catalog.example.io/dataset/slash-names';

beforeAll(async () => {
  s = await startTestServer();
  uuid = (await s.json('POST', '/catalog', { json: manifests.dataset('slash-names'), key: s.aliceKey })).body.metadata.uuid;
  tab = (await s.json('POST', '/catalog', { json: manifests.dataset('slash-tab', 'tabular'), key: s.aliceKey })).body.metadata.uuid;
});
afterAll(() => s.close());

const octets = (body: string) => ({ key: s.aliceKey, body, headers: { 'content-type': 'application/octet-stream' } });
const create = async (ref: string, name: string) => expect((await s.json('POST', ref, { key: s.aliceKey, json: { name, mime_type: 'text/plain' } })).status).toBe(200);
const text = async (method: string, path: string) => {
  const res = await s.req(method, path, { key: s.aliceKey });
  return { status: res.status, text: await res.text(), res };
};

describe('a file name with "/" sent as path segments (odp-sdk-python)', () => {
  it('create → upload → metadata → download → update → delete, by uuid and by name reference', async () => {
    for (const [ref, name] of [[`/data/${uuid}`, 'dir/a b.txt'], [byName, 'deep/er/still/c.csv']] as const) {
      await create(ref, name);
      const path = `${ref}/${name.replaceAll(' ', '%20')}`; // what requests sends for f"/{name}"
      const up = await s.json('PATCH', `${path}?overwrite=False`, octets('hello'));
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      expect(up.body).toMatchObject({ name, size_bytes: 5 });
      const meta = await s.json('GET', `${path}/metadata`, { key: s.aliceKey });
      expect(meta.status).toBe(200);
      expect(meta.body).toMatchObject({ name, dataset: uuid, size_bytes: 5, mime_type: 'text/plain' });
      const dl = await text('GET', path);
      expect(dl.status).toBe(200);
      expect(dl.text).toBe('hello');
      expect(dl.res.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
      const head = await s.req('HEAD', path, { key: s.aliceKey });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe('5');
      const patched = await s.json('PATCH', `${path}/metadata`, { key: s.aliceKey, json: { metadata: { station: 'A' } } });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name, metadata: { station: 'A' } });
      // the encoded form names the same file
      const encoded = `${ref}/${encodeURIComponent(name)}`;
      expect((await s.json('GET', `${encoded}/metadata`, { key: s.aliceKey })).body.metadata).toEqual({ station: 'A' });
      expect((await text('GET', encoded)).text).toBe('hello');
      expect((await s.req('DELETE', path, { key: s.bobKey })).status).toBe(403);
      expect((await s.req('DELETE', path, { key: s.aliceKey })).status).toBe(204);
      const gone = await s.json('GET', `${path}/metadata`, { key: s.aliceKey });
      expect(gone.status).toBe(404);
      expect(gone.body.description).toBe(`no file "${name}" in dataset ${uuid}`);
      expect((await s.json('GET', path, { key: s.aliceKey })).body.code).toBe('NotFound');
    }
  });

  it('a file that is not there is a 404 naming it, as for a one-segment name', async () => {
    const res = await s.json('DELETE', `/data/${uuid}/no/such.txt`, { key: s.aliceKey });
    expect(res.status).toBe(404);
    expect(res.body.description).toBe(`no file "no/such.txt" in dataset ${uuid}`);
    const up = await s.json('PATCH', `/data/${uuid}/no/such.txt`, octets('x'));
    expect(up.status).toBe(404);
  });

  it('a URL-encoded dataset reference takes a multi-segment name too', async () => {
    await create(byName, 'enc/ref.txt');
    expect((await s.json('PATCH', `/data/${encodeURIComponent('catalog.example.io/dataset/slash-names')}/enc/ref.txt`, octets('r'))).status).toBe(200);
    expect((await text('GET', `/data/${encodeURIComponent('catalog.example.io/dataset/slash-names')}/enc/ref.txt`)).text).toBe('r');
  });
});

describe('a trailing "metadata" segment when a file is named "<rest>/metadata"', () => {
  it('GET: the exact file wins; its metadata and the other file stay reachable; PATCH by body; DELETE the exact file', async () => {
    await create(byName, 'x');
    await s.req('PATCH', `${byName}/x`, octets('plain x'));
    // without a file "x/metadata", x/metadata is x's metadata (as before)
    expect((await s.json('GET', `${byName}/x/metadata`, { key: s.aliceKey })).body).toMatchObject({ name: 'x', size_bytes: 7 });
    await create(byName, 'x/metadata');
    // PATCH with bytes uploads to the file of the full name (Python's upload_file)
    expect((await s.json('PATCH', `${byName}/x/metadata`, octets('{"not": "metadata"}'))).body).toMatchObject({ name: 'x/metadata', size_bytes: 19 });
    // GET: the exact name wins (Python's download_file)...
    expect((await text('GET', `${byName}/x/metadata`)).text).toBe('{"not": "metadata"}');
    expect((await text('GET', `/data/${uuid}/x%2Fmetadata`)).text).toBe('{"not": "metadata"}');
    // ...its metadata is one segment further (Python's get_file_metadata)
    expect((await s.json('GET', `${byName}/x/metadata/metadata`, { key: s.aliceKey })).body).toMatchObject({ name: 'x/metadata', size_bytes: 19 });
    // PATCH with JSON is x's metadata update: an upload is never JSON
    const patched = await s.json('PATCH', `${byName}/x/metadata`, { key: s.aliceKey, json: { metadata: { of: 'x' } } });
    expect(patched.body).toMatchObject({ name: 'x', metadata: { of: 'x' } });
    expect((await text('GET', `${byName}/x`)).text).toBe('plain x');
    // DELETE names the exact file; x stays, and x/metadata is x's metadata again
    expect((await s.req('DELETE', `${byName}/x/metadata`, { key: s.aliceKey })).status).toBe(204);
    expect((await s.json('GET', `${byName}/x/metadata`, { key: s.aliceKey })).body).toMatchObject({ name: 'x', metadata: { of: 'x' } });
    // a file named "metadata" is one segment
    await create(byName, 'metadata');
    expect((await s.json('GET', `${byName}/metadata/metadata`, { key: s.aliceKey })).body).toMatchObject({ name: 'metadata' });
  });
});

describe('tabular paths and dataset references', () => {
  it('on a raw dataset, paths under /schema and /stage are files; on a tabular one they stay tabular', async () => {
    for (const name of ['stage/a.txt', 'stage/a/b.txt', 'schema/v1.json', 'list/x', 'delete/y']) {
      await create(`/data/${uuid}`, name);
      expect((await s.json('PATCH', `/data/${uuid}/${name}`, octets(name))).status, name).toBe(200);
      expect((await text('GET', `/data/${uuid}/${name}`)).text, name).toBe(name);
      expect((await s.json('GET', `/data/${uuid}/${name}/metadata`, { key: s.aliceKey })).body.name, name).toBe(name);
      expect((await s.req('DELETE', `/data/${uuid}/${name}`, { key: s.aliceKey })).status, name).toBe(204);
    }
    expect((await s.json('POST', `/data/${tab}/schema`, { key: s.aliceKey, json: { table_schema: { a: { type: 'int32' } } } })).status).toBe(200);
    expect((await s.json('GET', `/data/${tab}/schema`, { key: s.aliceKey })).body.table_schema).toEqual({ a: { type: 'int32', nullable: true } });
    const stage = await s.json('GET', `/data/${tab}/stage/a.txt`, { key: s.aliceKey });
    expect(stage.body.description).toMatch(/stage/);
    expect(stage.body.code).not.toBe('WrongStorageClass');
    // a file path of a tabular dataset is refused naming the class, as a one-segment one is
    for (const path of ['one.txt', 'dir/a.txt', 'stage/a/b']) {
      const res = await s.json('GET', `/data/${tab}/${path}`, { key: s.aliceKey });
      expect(res.status, path).toBe(400);
      expect(res.body.code, path).toBe('WrongStorageClass');
    }
  });

  it('a dataset reference alone is still no route; an empty name is still a 400', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await s.json(method, byName, { key: s.aliceKey });
      expect(res.status, method).toBe(404);
      expect(res.body.description).toBe(`no route ${method} ${byName}`);
    }
    for (const path of [`/data/${uuid}/`, `${byName}/`, `/data/${uuid}//`, `/data/${uuid}//a`]) {
      const res = await s.json('GET', path, { key: s.aliceKey });
      expect(res.status, path).toBe(400);
      expect(res.body.description, path).toMatch(/^name: /);
    }
  });
});
