// Raw files whose names are tabular v1 paths ("schema", "stage", "list", "delete"): on a raw dataset
// every path of such a file answers as it does for any other name; on a tabular dataset the paths
// keep their tabular meaning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let uuid: string;
const byName = '/data/catalog.example.io/dataset/raw-names';
const tab = '/data/catalog.example.io/dataset/tab-names';

beforeAll(async () => {
  s = await startTestServer();
  uuid = (await s.json('POST', '/catalog', { json: manifests.dataset('raw-names'), key: s.aliceKey })).body.metadata.uuid;
  await s.json('POST', '/catalog', { json: manifests.dataset('tab-names', 'tabular'), key: s.aliceKey });
});
afterAll(() => s.close());

const octets = (body: string) => ({ key: s.aliceKey, body, headers: { 'content-type': 'application/octet-stream' } });

// what every path of file `name` answers, in order: a listing to compare between names
async function lifecycle(ref: string, name: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const note = async (method: string, path: string, opts: Parameters<TestServer['req']>[2] = { key: s.aliceKey }) => {
    const res = await s.req(method, `${ref}/${path}`, opts);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // bytes
    }
    // what differs between names is the name itself
    const named = new RegExp(`(?<![\\w-])${name}(?![\\w-])`, 'g');
    const headers = ['content-type', 'content-disposition', 'accept-ranges'].map((h) => res.headers.get(h)?.replace(named, '<name>'));
    out.push([method, path.replace(name, '<name>'), res.status, JSON.parse(JSON.stringify(body ?? null).replace(named, '<name>')), headers]);
    return body;
  };
  await note('GET', name);
  await note('GET', `${name}/metadata`);
  await note('DELETE', name);
  expect((await s.json('POST', ref, { key: s.aliceKey, json: { name, mime_type: 'text/plain' } })).status).toBe(200);
  await note('GET', `${name}/metadata`);
  await note('PATCH', name, octets('some bytes'));
  await note('GET', name);
  await note('HEAD', name);
  await note('PATCH', `${name}/metadata`, { key: s.aliceKey, json: { metadata: { station: 'A' } } });
  await note('GET', `${name}/metadata`);
  await note('DELETE', `${name}/metadata`);
  await note('GET', `${name}/other`);
  await note('DELETE', name, { key: s.bobKey });
  await note('DELETE', name);
  await note('GET', name);
  await note('GET', `${name}/metadata`);
  return out;
}

// timestamps and checksums differ from one run to the next
const stable = (xs: unknown[]): unknown[] => JSON.parse(JSON.stringify(xs).replace(/"(created_time|modified_time)":"[^"]*"/g, '"$1":"<t>"'));

describe('raw files named like tabular paths', () => {
  it('"schema" and "stage" answer every file route as any other name does, by name reference and by uuid', async () => {
    const plain = stable(await lifecycle(byName, 'ordinary'));
    // the baseline itself: download, metadata, delete, 404 without the file
    expect(plain).toContainEqual(['GET', '<name>', 200, 'some bytes', ['text/plain', "attachment; filename*=UTF-8''<name>", 'bytes']]);
    expect(plain).toContainEqual(['DELETE', '<name>', 204, '', [null, null, null]]);
    expect(plain.at(-1)).toEqual(['GET', '<name>/metadata', 404, expect.objectContaining({ code: 'NotFound' }), expect.any(Array)]);
    const plainById = stable(await lifecycle(`/data/${uuid}`, 'ordinary'));
    for (const name of ['schema', 'stage', 'list', 'delete']) {
      expect(stable(await lifecycle(byName, name)), name).toEqual(plain);
      expect(stable(await lifecycle(`/data/${uuid}`, name)), name).toEqual(plainById);
    }
  });

  it('on a tabular dataset the paths keep their tabular meaning', async () => {
    expect((await s.json('GET', `${tab}/schema`, { key: s.aliceKey })).status).toBe(404);
    expect((await s.json('POST', `${tab}/schema`, { key: s.aliceKey, json: { table_schema: { a: { type: 'int32' } } } })).status).toBe(200);
    expect((await s.json('GET', `${tab}/schema`, { key: s.aliceKey })).body.table_schema).toEqual({ a: { type: 'int32', nullable: true } });
    const stage = await s.json('GET', `${tab}/stage/metadata`, { key: s.aliceKey });
    expect(stage.status).toBe(404);
    expect(stage.body.description).toContain('no open stage metadata');
    expect((await s.json('DELETE', `${tab}/stage/metadata`, { key: s.aliceKey })).body.description).toContain('no open stage metadata');
    expect((await s.req('DELETE', `${tab}/schema`, { key: s.aliceKey })).status).toBe(204);
    // and a tabular path with no file route stays a 400 naming the class on a raw dataset
    const post = await s.json('POST', `${byName}/schema`, { key: s.aliceKey, json: { table_schema: { a: { type: 'int32' } } } });
    expect(post.status).toBe(400);
    expect(post.body.code).toBe('WrongStorageClass');
  });
});
