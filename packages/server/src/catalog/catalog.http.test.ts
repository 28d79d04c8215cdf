// Catalog routes over HTTP: create/get/update/delete, validation, OQS (incl. geometry) and paging.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, square, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('create and get', () => {
  it('creates a dataset: 201 with uuid, owner and status; readable by uuid and by kind/name', async () => {
    const { status, body } = await s.json('POST', '/catalog', { json: manifests.dataset('ctd-2024'), key: s.aliceKey });
    expect(status).toBe(201);
    expect(body.metadata.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.owner).toMatch(/^apikey:/);
    expect(body.status).toMatchObject({ num_updates: 0, created_by: body.owner, updated_by: body.owner });
    expect(Date.parse(body.status.created_time)).not.toBeNaN();
    const byUuid = await s.json('GET', `/catalog/${body.metadata.uuid}`, { key: s.bobKey });
    expect(byUuid.body).toEqual(body);
    const byName = await s.json('GET', '/catalog/catalog.example.io/dataset/ctd-2024');
    expect(byName.body).toEqual(body);
  });

  it('409 on a duplicate name, 404 on a missing resource', async () => {
    await s.json('POST', '/catalog', { json: manifests.dataset('dup') });
    const again = await s.json('POST', '/catalog', { json: manifests.dataset('dup') });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('Conflict');
    expect(again.body.description).toContain('dup');
    expect((await s.json('GET', '/catalog/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    expect((await s.json('GET', '/catalog/catalog.example.io/dataset/none')).body.code).toBe('NotFound');
  });

  it.each([
    ['kind', { kind: 'catalog.example.io/thing' }, 'kind'],
    ['version', { version: 'v1alpha2' }, 'version'],
    ['name pattern', { metadata: { name: '-bad' } }, 'metadata.name'],
    ['storage pair', { spec: { ...manifests.dataset('x').spec, storage_class: 'registry.example.io/storageClass/tabular' } }, 'spec.storage_class'],
    ['maintainer', { spec: { ...manifests.dataset('x').spec, maintainer: undefined } }, 'spec.maintainer'],
    ['data_collection', { spec: { ...manifests.dataset('x').spec, data_collection: 'catalog.example.io/dataCollection/missing' } }, 'spec.data_collection'],
    ['labels', { metadata: { name: 'x', labels: { a: 'yes' } } }, 'metadata.labels.a'],
  ])('400 naming the field: %s', async (_what, change, field) => {
    const before = await s.json('POST', '/catalog/list', { json: {} });
    const { status, body } = await s.json('POST', '/catalog', { json: { ...manifests.dataset('x'), ...change } });
    expect(status).toBe(400);
    expect(body.code).toBe('InvalidManifest');
    expect(body.description.startsWith(`${field}:`)).toBe(true);
    expect((await s.json('POST', '/catalog/list', { json: {} })).body.num_results).toBe(before.body.num_results);
  });

  it('validates collections and observables by class', async () => {
    expect((await s.json('POST', '/catalog', { json: manifests.collection('coll-1') })).status).toBe(201);
    const badDate = await s.json('POST', '/catalog', { json: { ...manifests.collection('coll-2'), spec: { published_date: '2024-13-01T00:00:00' } } });
    expect(badDate.body.description).toMatch(/^spec.published_date:/);
    expect((await s.json('POST', '/catalog', { json: manifests.dataset('in-coll', 'raw', { data_collection: 'catalog.example.io/dataCollection/coll-1' }) })).status).toBe(201);
    const noDs = await s.json('POST', '/catalog', { json: manifests.geoObservable('o1', 'nope', square(0, 0, 1)) });
    expect(noDs.body.description).toMatch(/^spec.ref: .*does not exist/);
    const badGeom = await s.json('POST', '/catalog', { json: manifests.geoObservable('o1', 'in-coll', { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }) });
    expect(badGeom.body.description).toMatch(/^spec.details.value: .*closed/);
    const cov = { ...manifests.geoObservable('o2', 'in-coll', null), spec: { ref: 'catalog.example.io/dataset/in-coll', observable_class: 'catalog.example.io/observableClass/static-coverage', details: { attribute: 'depth', value: [10, 1] } } };
    expect((await s.json('POST', '/catalog', { json: cov })).body.description).toMatch(/^spec.details.value: min 10 is greater/);
    cov.spec.details.value = [1, 10];
    expect((await s.json('POST', '/catalog', { json: cov })).status).toBe(201);
  });

  it('400 for a body that is not JSON, and 415 for a non-JSON content type', async () => {
    const bad = await s.req('POST', '/catalog', { body: '{"kind":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    const text = await s.req('POST', '/catalog', { body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(((await text.json()) as { code: string }).code).toBe('UnsupportedMediaType');
  });
});

describe('update and delete', () => {
  it('PATCH by name and kind updates and counts; the owner or an admin only', async () => {
    const created = (await s.json('POST', '/catalog', { json: manifests.dataset('upd'), key: s.aliceKey })).body;
    const m = manifests.dataset('upd');
    m.metadata.display_name = 'Renamed';
    const forbidden = await s.json('PATCH', '/catalog?kind=catalog.example.io/dataset&either_id=upd', { json: m, key: s.bobKey });
    expect(forbidden.status).toBe(403);
    const ok = await s.json('PATCH', '/catalog?kind=catalog.example.io/dataset&either_id=upd', { json: m, key: s.aliceKey });
    expect(ok.status).toBe(200);
    expect(ok.body.metadata).toMatchObject({ uuid: created.metadata.uuid, display_name: 'Renamed' });
    expect(ok.body.status.num_updates).toBe(1);
    const byUuid = await s.json('PATCH', `/catalog?either_id=${created.metadata.uuid}`, { json: m });
    expect(byUuid.body.status.num_updates).toBe(2);
    const missing = await s.json('PATCH', '/catalog?kind=catalog.example.io/dataset&either_id=nope', { json: m });
    expect(missing.status).toBe(404);
    const tabular = await s.json('PATCH', '/catalog?kind=catalog.example.io/dataset&either_id=upd', { json: manifests.dataset('upd', 'tabular') });
    expect(tabular.body.description).toMatch(/^spec.storage_class: .*cannot change/);
  });

  it('DELETE by uuid or kind/name; 404 after', async () => {
    const a = (await s.json('POST', '/catalog', { json: manifests.dataset('del-a'), key: s.aliceKey })).body;
    expect((await s.req('DELETE', `/catalog/${a.metadata.uuid}`, { key: s.bobKey })).status).toBe(403);
    expect((await s.req('DELETE', `/catalog/${a.metadata.uuid}`, { key: s.aliceKey })).status).toBe(204);
    expect((await s.req('DELETE', `/catalog/${a.metadata.uuid}`)).status).toBe(404);
    await s.json('POST', '/catalog', { json: manifests.dataset('del-b') });
    expect((await s.req('DELETE', '/catalog/catalog.example.io/dataset/del-b')).status).toBe(204);
    expect((await s.req('GET', '/catalog/catalog.example.io/dataset/del-b')).status).toBe(404);
  });

  it('deleting a tabular dataset removes the raw files beside its table too, with or without a table', async () => {
    for (const [name, ingest] of [['del-tab', true], ['del-files-only', false]] as const) {
      const uuid = (await s.json('POST', '/catalog', { json: manifests.dataset(name, 'tabular') })).body.metadata.uuid as string;
      const up = await s.json('POST', `/api/table/v2/raw/upload?table_id=${uuid}&name=a.csv`, { body: 'a,b\n1,2\n', headers: { 'content-type': 'application/octet-stream' } });
      expect(up.status).toBe(200);
      if (ingest) expect((await s.req('POST', `/api/table/v2/raw/ingest?table_id=${uuid}&id=a.csv`)).status).toBe(200);
      expect((await s.req('DELETE', `/catalog/${uuid}`)).status).toBe(204);
      const table = s.server.store.table(uuid);
      expect(await table.raw.list()).toEqual([]);
      expect(await table.schema()).toBeUndefined();
      await expect(readdir(join(s.dataDir, 'files'))).resolves.not.toContain(up.body.raw_id);
    }
  });
});

describe('list with OQS', () => {
  beforeAll(async () => {
    await s.json('POST', '/catalog', { json: manifests.dataset('geo-ds') });
    await s.json('POST', '/catalog', { json: manifests.geoObservable('north-sea', 'geo-ds', square(0, 50, 8)) });
    await s.json('POST', '/catalog', { json: manifests.geoObservable('baltic', 'geo-ds', square(12, 54, 10)) });
    await s.json('POST', '/catalog', { json: manifests.geoObservable('point-obs', 'geo-ds', { type: 'Point', coordinates: [3, 52] }) });
  });
  const obsKind = { '#EQUALS': ['$spec.observable_class', 'catalog.example.io/observableClass/static-geometric-coverage'] };
  const names = (body: { results: { metadata: { name: string } }[] }) => body.results.map((r) => r.metadata.name).sort();

  it('#AND of kind and #ST_INTERSECTS finds the observables whose geometry intersects', async () => {
    const q = { '#AND': [obsKind, { '#ST_INTERSECTS': ['$spec.details.value.geometry', square(5, 51, 1)] }] };
    expect(names((await s.json('POST', '/catalog/list', { json: q })).body)).toEqual(['north-sea']);
    const both = { '#AND': [obsKind, { '#ST_INTERSECTS': ['$spec.details.value.geometry', square(2, 51, 12)] }] };
    expect(names((await s.json('POST', '/catalog/list', { json: both })).body)).toEqual(['baltic', 'north-sea', 'point-obs']);
  });

  it('#ST_WITHIN, #ST_CONTAINS, #ST_EQUALS', async () => {
    const within = { '#ST_WITHIN': ['$spec.details.value', square(-1, 49, 10)] };
    expect(names((await s.json('POST', '/catalog/list', { json: within })).body)).toEqual(['north-sea', 'point-obs']);
    const contains = { '#ST_CONTAINS': ['$spec.details.value.geometry', { type: 'Point', coordinates: [13, 55] }] };
    expect(names((await s.json('POST', '/catalog/list', { json: contains })).body)).toEqual(['baltic']);
    const equals = { '#ST_EQUALS': ['$spec.details.value', square(0, 50, 8)] };
    expect(names((await s.json('POST', '/catalog/list', { json: equals })).body)).toEqual(['north-sea']);
  });

  it('comparisons, #OR, #NEGATE, #WITHIN, #NULL, #NON_NULL', async () => {
    const q = (json: unknown) => s.json('POST', '/catalog/list', { json }).then((r) => names(r.body));
    expect(await q({ '#AND': [obsKind, { '#GREATER_THAN_OR_EQUALS': ['$metadata.name', 'n'] }] })).toEqual(['north-sea', 'point-obs']);
    expect(await q({ '#AND': [obsKind, { '#LESS_THAN': ['$metadata.name', 'c'] }] })).toEqual(['baltic']);
    expect(await q({ '#OR': [{ '#EQUALS': ['$metadata.name', 'baltic'] }, { '#EQUALS': ['$metadata.name', 'geo-ds'] }] })).toEqual(['baltic', 'geo-ds']);
    expect(await q({ '#AND': [obsKind, { '#NEGATE': { '#EQUALS': ['$metadata.name', 'baltic'] } }] })).toEqual(['north-sea', 'point-obs']);
    expect(await q({ '#WITHIN': ['$metadata.name', ['baltic', 'point-obs', 'nothing']] })).toEqual(['baltic', 'point-obs']);
    expect(await q({ '#AND': [obsKind, { '#NON_NULL': '$spec.details.value' }] })).toHaveLength(3);
    expect(await q({ '#AND': [obsKind, { '#NULL': ['$metadata.display_name'] }] })).toHaveLength(3);
    expect(await q({ '#AND': [{ '#EQUALS': ['$spec.storage_class', 'registry.example.io/storageClass/raw'] }, { '#EQUALS': ['$metadata.name', 'geo-ds'] }] })).toEqual(['geo-ds']);
  });

  it('{selectors: [{kind}]} lists the resources of the kinds named; a malformed one is a 400', async () => {
    const datasets = await s.json('POST', '/catalog/list', { json: { '#EQUALS': ['$kind', 'catalog.example.io/dataset'] } });
    const selected = await s.json('POST', '/catalog/list', { json: { selectors: [{ kind: 'catalog.example.io/dataset' }] } });
    expect(selected.status).toBe(200);
    expect(selected.body.num_results).toBeGreaterThan(0);
    expect(names(selected.body)).toEqual(names(datasets.body));
    const both = await s.json('POST', '/catalog/list', { json: { selectors: [{ kind: 'catalog.example.io/dataset' }, { kind: 'catalog.example.io/observable' }] } });
    const either = await s.json('POST', '/catalog/list', { json: { '#WITHIN': ['$kind', ['catalog.example.io/dataset', 'catalog.example.io/observable']] } });
    expect(names(both.body)).toEqual(names(either.body));
    expect(both.body.num_results).toBeGreaterThan(selected.body.num_results);
    const bad = await s.json('POST', '/catalog/list', { json: { selectors: [{ type: 'dataset' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'InvalidQuery', description: expect.stringMatching(/^invalid selectors body at selectors\[0\]: unknown selector field "type"/) });
  });

  it.each([
    [{ '#AND': [{ '#EQUALS': ['$kind'] }] }, '#AND[0].#EQUALS'],
    [{ '#AND': [obsKind, { '#ST_INTERSECTS': ['$spec.details.value', { type: 'Polygon', coordinates: 5 }] }] }, '#AND[1].#ST_INTERSECTS[1]'],
    [{ '#OR': [{ '#NOPE': [] }] }, '#OR[0]'],
    [{ '#EQUALS': ['$a', 1], '#AND': [] }, 'the top level'],
    [{ '#NULL': 'kind' }, '#NULL'],
    [[1, 2], 'the top level'],
  ])('malformed OQS %j is a 400 saying where (%s)', async (json, where) => {
    const { status, body } = await s.json('POST', '/catalog/list', { json });
    expect(status).toBe(400);
    expect(body.code).toBe('InvalidQuery');
    expect(body.description).toContain(`at ${where}:`);
  });

  it('pages are stable under concurrent inserts: no duplicates, no skips', async () => {
    const kind = { '#EQUALS': ['$spec.tags', ['paging']] };
    const pre = 25;
    for (let i = 0; i < pre; i++) await s.json('POST', '/catalog', { json: manifests.dataset(`page-${i}`, 'raw', { tags: ['paging'] }) });
    const seen: string[] = [];
    let next: string | null = null;
    let added = 0;
    do {
      const res: { body: { results: { metadata: { name: string } }[]; next: string | null; num_results: number } } = await s.json('POST', `/catalog/list?page_size=4${next ? `&page=${next}` : ''}`, { json: kind });
      expect(res.body.num_results).toBe(res.body.results.length);
      seen.push(...res.body.results.map((r) => r.metadata.name));
      next = res.body.next;
      // meanwhile others insert (appended after everything listed so far)
      await Promise.all([0, 1].map(() => s.json('POST', '/catalog', { json: manifests.dataset(`page-new-${added++}`, 'raw', { tags: ['paging'] }) })));
    } while (next !== null && added < 40);
    expect(new Set(seen).size).toBe(seen.length);
    for (let i = 0; i < pre; i++) expect(seen).toContain(`page-${i}`);
    const newOnes = seen.filter((n) => n.startsWith('page-new-')).map((n) => Number(n.slice(9)));
    expect(newOnes).toEqual([...newOnes].sort((a, b) => a - b));
  });

  it('400 for a bad page cursor or page_size', async () => {
    expect((await s.json('POST', '/catalog/list?page=abc', { json: {} })).status).toBe(400);
    expect((await s.json('POST', '/catalog/list?page_size=0', { json: {} })).status).toBe(400);
  });
});
