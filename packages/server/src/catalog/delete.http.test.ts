// Deleting catalog resources over HTTP: a dataset takes its observables along (catalog and STAC), a
// collection with datasets stays (409), and a write racing a dataset delete leaves nothing behind.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Field, RecordBatch, Schema, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../server.js';
import { gatedBody } from '../test-util/gated-body.js';
import { manifests, square, startTestServer, type TestServer } from '../test-util/server.js';
import { assertValid } from '../test-util/validate.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const create = async (m: unknown): Promise<string> => {
  const r = await s.json('POST', '/catalog', { json: m });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.metadata.uuid as string;
};
const observablesOf = async (dataset: string): Promise<string[]> => {
  const q = { '#AND': [{ '#EQUALS': ['$kind', 'catalog.example.io/observable'] }, { '#EQUALS': ['$spec.ref', `catalog.example.io/dataset/${dataset}`] }] };
  return (await s.json('POST', '/catalog/list', { json: q })).body.results.map((r: { metadata: { name: string } }) => r.metadata.name).sort();
};

describe('deleting a dataset', () => {
  it('deletes the observables of it, and only those; the STAC item goes, a new dataset of that name inherits nothing', async () => {
    const doomed = await create(manifests.dataset('doomed'));
    await create(manifests.dataset('kept'));
    await create(manifests.geoObservable('doomed-point', 'doomed', { type: 'Point', coordinates: [12, 52] }));
    const area = await create(manifests.geoObservable('doomed-area', 'doomed', square(10, 50, 5))); // the newest footprint wins
    await create(manifests.geoObservable('kept-area', 'kept', square(-40, -10, 5)));
    const item = await s.json('GET', `/api/stac/items/${doomed}`, { key: null });
    expect(item.body.bbox).toEqual([10, 50, 15, 55]);

    expect((await s.req('DELETE', '/catalog/catalog.example.io/dataset/doomed')).status).toBe(204);
    expect(await observablesOf('doomed')).toEqual([]);
    expect((await s.req('GET', `/catalog/${area}`)).status).toBe(404);
    expect(await observablesOf('kept')).toEqual(['kept-area']);
    expect((await s.json('GET', `/api/stac/items/${doomed}`, { key: null })).status).toBe(404);
    const near = await s.json('POST', '/api/stac/search', { key: null, json: { bbox: [11, 51, 12, 52] } });
    expect(near.body.features).toEqual([]);

    // the name is free again, and the old footprint does not attach to the new dataset
    const reborn = await create(manifests.dataset('doomed'));
    const fresh = await s.json('GET', `/api/stac/items/${reborn}`, { key: null });
    expect(fresh.status).toBe(200);
    assertValid('item', fresh.body);
    expect(fresh.body.geometry).toBeNull();
  });

  it('an observable of a dataset being deleted cannot be created after it: 400 naming spec.ref', async () => {
    await create(manifests.dataset('short'));
    expect((await s.req('DELETE', '/catalog/catalog.example.io/dataset/short')).status).toBe(204);
    const late = await s.json('POST', '/catalog', { json: manifests.geoObservable('late', 'short', square(0, 0, 1)) });
    expect(late.status).toBe(400);
    expect(late.body.description).toMatch(/^spec.ref: catalog.example.io\/dataset\/short does not exist/);
  });
});

describe('deleting a data collection', () => {
  it('is a 409 naming the datasets still in it; once they are gone it is deleted', async () => {
    const coll = await create(manifests.collection('cruise'));
    await create(manifests.dataset('leg-1', 'raw', { data_collection: 'catalog.example.io/dataCollection/cruise' }));
    await create(manifests.dataset('leg-2', 'tabular', { data_collection: 'catalog.example.io/dataCollection/cruise' }));
    const refused = await s.json('DELETE', `/catalog/${coll}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('Conflict');
    expect(refused.body.description).toMatch(/^data collection cruise still has datasets \(leg-1, leg-2\)/);
    expect((await s.json('GET', `/api/stac/collections/${coll}`, { key: null })).status).toBe(200);
    for (const leg of ['leg-1', 'leg-2']) expect((await s.req('DELETE', `/catalog/catalog.example.io/dataset/${leg}`)).status).toBe(204);
    expect((await s.req('DELETE', `/catalog/${coll}`)).status).toBe(204);
    expect((await s.json('GET', `/api/stac/collections/${coll}`, { key: null })).status).toBe(404);
  });
});

describe('renaming a resource others refer to by name', () => {
  it('is a 409 naming them (dataset with observables, collection with datasets); other changes and free names pass', async () => {
    await create(manifests.collection('survey'));
    await create(manifests.dataset('station', 'raw', { data_collection: 'catalog.example.io/dataCollection/survey' }));
    const obs = await create(manifests.geoObservable('station-area', 'station', square(5, 5, 1)));
    const renamed = (m: { metadata: Record<string, unknown> }, name: string) => ({ ...m, metadata: { ...m.metadata, name } });
    const station = manifests.dataset('station', 'raw', { data_collection: 'catalog.example.io/dataCollection/survey' });

    const ds = await s.json('PATCH', '/catalog?kind=catalog.example.io/dataset&either_id=station', { json: renamed(station, 'station-2') });
    expect(ds.status).toBe(409);
    expect(ds.body.description).toMatch(/^metadata.name: catalog.example.io\/dataset\/station cannot be renamed while observables refer to it by name \(station-area\)/);
    const coll = await s.json('PATCH', '/catalog?kind=catalog.example.io/dataCollection&either_id=survey', { json: renamed(manifests.collection('survey'), 'survey-2') });
    expect(coll.status).toBe(409);
    expect(coll.body.description).toMatch(/while datasets refer to it by name \(station\)/);
    expect(await observablesOf('station')).toEqual(['station-area']);

    const same = await s.json('PATCH', '/catalog?kind=catalog.example.io/dataset&either_id=station', { json: { ...station, metadata: { ...station.metadata, display_name: 'Station S' } } });
    expect(same.status).toBe(200);
    expect((await s.req('DELETE', `/catalog/${obs}`)).status).toBe(204);
    expect((await s.json('PATCH', '/catalog?kind=catalog.example.io/dataset&either_id=station', { json: renamed(station, 'station-2') })).status).toBe(200);
  });
});

describe('a write racing a dataset delete', () => {
  const MiB = 1024 * 1024;
  const gate = () => s.server.app.halocline.writes;
  const files = () => readdir(join(s.dataDir, 'files')).catch(() => [] as string[]);

  it('a v2 raw upload under way is cut off with a 404 and leaves no file; the delete waits for it', async () => {
    const uuid = await create(manifests.dataset('upload-race', 'tabular'));
    const before = await files();
    const body = gatedBody(Buffer.alloc(24 * MiB, 7), 20 * MiB);
    const upload = s.req('POST', `/api/table/v2/raw/upload?table_id=${uuid}&name=big.bin`, { body: body.body, headers: { 'content-type': 'application/octet-stream' } });
    // the upload's handler holds the dataset (it runs, reading the body) before the delete starts
    await vi.waitFor(() => expect(gate().held(uuid)).toBe(1));
    const deleted = s.req('DELETE', `/catalog/${uuid}`);
    const res = await upload;
    body.release();
    expect((await deleted).status).toBe(204);
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/^dataset [0-9a-f-]+ was deleted during this request; nothing was written/);
    expect(await s.server.store.table(uuid).raw.list()).toEqual([]);
    expect(await files()).toEqual(before);
    expect(gate().held(uuid)).toBe(0);
  });

  it('a v2 insert under way is cut off too; writes after the delete are 204 (no such table) and create nothing', async () => {
    const uuid = await create(manifests.dataset('insert-race', 'tabular'));
    const schema = new Schema([new Field('s', new Utf8(), false)]);
    const ipc = (rows: string[]) => Buffer.from(tableToIPC(new Table(schema, [new RecordBatch(schema, new RecordBatch({ s: vectorFromArray(rows, new Utf8()).data[0]! }).data)]), 'stream'));
    expect((await s.req('POST', `/api/table/v2/sdk/create?table_id=${uuid}`, { body: ipc([]), headers: { 'content-type': 'application/vnd.apache.arrow.stream' } })).status).toBe(200);
    const bytes = ipc(Array.from({ length: 24 }, () => 'y'.repeat(MiB))); // one batch of 24 MiB, cut before its end
    const body = gatedBody(bytes, bytes.length - 1024);
    const insert = s.req('POST', `/api/table/v2/sdk/insert?table_id=${uuid}`, { body: body.body, headers: { 'content-type': 'application/vnd.apache.arrow.stream' } });
    await vi.waitFor(() => expect(gate().held(uuid)).toBe(1));
    expect((await s.req('DELETE', `/catalog/${uuid}`)).status).toBe(204);
    body.release();
    expect((await insert).status).toBe(404);
    const after = await s.req('POST', `/api/table/v2/raw/upload?table_id=${uuid}&name=late.bin`, { body: 'x', headers: { 'content-type': 'application/octet-stream' } });
    expect(after.status).toBe(204);
    expect(await s.server.store.table(uuid).raw.list()).toEqual([]);
    expect(s.server.store.tables()).not.toContain(uuid);
  });
});

describe('a dataset delete racing its create', () => {
  it('waits until the storage is provisioned, so it removes what the create made (no raw directory left behind)', async () => {
    const files = s.server.app.halocline.files;
    const provision = files.provision.bind(files);
    let release!: () => void;
    const provisioning = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const inProvision = new Promise<void>((r) => (started = r));
    files.provision = async (dataset: string) => {
      started();
      await provisioning;
      return provision(dataset);
    };
    try {
      const creating = s.json('POST', '/catalog', { json: manifests.dataset('racing-create') });
      await inProvision;
      const uuid = s.server.app.halocline.catalog.getByName('catalog.example.io/dataset', 'racing-create')!.metadata.uuid;
      const deleting = s.req('DELETE', `/catalog/${uuid}`);
      await vi.waitFor(() => expect(s.server.app.halocline.writes.closing(uuid)).toBe(true));
      release();
      expect((await creating).status).toBe(201);
      expect((await deleting).status).toBe(204);
      expect(await readdir(join(s.dataDir, 'raw'))).not.toContain(uuid);
    } finally {
      files.provision = provision;
    }
  });
});

describe('a dataset delete interrupted before its storage was removed', () => {
  it('is finished at the next start: the catalog and its observables stay deleted, the files go; orphaned observables go too', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'halocline-delete-'));
    const start = () => startServer({ port: 0, host: '127.0.0.1', workers: 0, config: { logger: false, dataDir } });
    try {
      const first = await start();
      const key = first.firstAdminKey!;
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${first.url}${path}`, { method, headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      const uuid = ((await (await call('POST', '/catalog', manifests.dataset('crashy', 'tabular'))).json()) as { metadata: { uuid: string } }).metadata.uuid;
      await call('POST', '/catalog', manifests.geoObservable('crashy-area', 'crashy', square(0, 0, 1)));
      const up = await fetch(`${first.url}/api/table/v2/raw/upload?table_id=${uuid}&name=a.csv`, { method: 'POST', headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/octet-stream' }, body: 'a\n1\n' });
      expect(up.status).toBe(200);
      // the catalog half of a delete, as a process killed right after its commit leaves it
      const catalog = first.app.halocline.catalog;
      const ds = catalog.get(uuid)!;
      const obs = [...catalog.all()].filter((r) => r.metadata.name === 'crashy-area');
      await catalog.deleteAll([uuid, ...obs.map((o) => o.metadata.uuid)], { storageOf: ds });
      expect(catalog.pendingRemovals().map((r) => r.metadata.uuid)).toEqual([uuid]);
      expect(await first.store.table(uuid).raw.list()).toHaveLength(1);
      // and an observable orphaned as deletes left them before they took observables along
      const legacy = ((await (await call('POST', '/catalog', manifests.dataset('legacy'))).json()) as { metadata: { uuid: string } }).metadata.uuid;
      expect((await call('POST', '/catalog', manifests.geoObservable('legacy-area', 'legacy', square(0, 0, 1)))).status).toBe(201);
      await catalog.delete(legacy);
      await first.close();

      const second = await start();
      try {
        expect(await second.store.table(uuid).raw.list()).toEqual([]);
        expect(second.app.halocline.catalog.pendingRemovals()).toEqual([]);
        expect(second.app.halocline.catalog.get(uuid)).toBeUndefined();
        expect([...second.app.halocline.catalog.all()].map((r) => r.metadata.name)).not.toContain('crashy-area');
        expect([...second.app.halocline.catalog.all()].map((r) => r.metadata.name)).not.toContain('legacy-area');
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
