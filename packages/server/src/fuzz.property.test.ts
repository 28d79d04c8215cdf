// Fuzz over HTTP (fast-check): random manifests, OQS bodies and rows never give a 5xx, and a rejected
// request leaves the catalog and the table exactly as they were.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, square, startTestServer, type TestServer } from './test-util/server.js';

let s: TestServer;
const tab = '/data/catalog.example.io/dataset/fuzz-tab';

beforeAll(async () => {
  s = await startTestServer();
  await s.json('POST', '/catalog', { json: manifests.dataset('fuzz-base') });
  await s.json('POST', '/catalog', { json: manifests.geoObservable('fuzz-obs', 'fuzz-base', square(0, 0, 5)) });
  await s.json('POST', '/catalog', { json: manifests.dataset('fuzz-tab', 'tabular') });
  await s.json('POST', `${tab}/schema`, { json: { table_schema: { a: { type: 'int32', nullable: false }, b: { type: 'string' }, t: { type: 'timestamp' }, g: { type: 'geometry' } } } });
  await s.json('POST', tab, { json: { data: [{ a: 1, b: 'x', t: '2024-01-01T00:00:00Z', g: 'POINT (1 1)' }] } });
});
afterAll(() => s.close());

const catalogSnapshot = async () => JSON.stringify((await s.json('POST', '/catalog/list', { json: {} })).body);
const tableSnapshot = async () => JSON.stringify((await s.json('POST', `${tab}/list?limit=100000`, { json: {} })).body);

const json = fc.jsonValue({ maxDepth: 3 });
const path = fc.constantFrom('$kind', '$metadata.name', '$spec.details.value.geometry', '$spec.tags', '$a', '$b', '$t', '$g', '$', '$.x', 'kind');
const geometry = fc.oneof(
  fc.tuple(fc.double({ min: -200, max: 200, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true })).map(([x, y]) => ({ type: 'Point', coordinates: [x, y] })),
  fc.tuple(fc.integer({ min: -10, max: 10 }), fc.integer({ min: -10, max: 10 }), fc.integer({ min: 0, max: 5 })).map(([x, y, w]) => square(x, y, w)),
  json,
);
const op = fc.constantFrom('#EQUALS', '#GREATER_THAN', '#LESS_THAN_OR_EQUALS', '#WITHIN', '#NULL', '#NON_NULL', '#ST_INTERSECTS', '#ST_WITHIN', '#ST_CONTAINS', '#ST_EQUALS', '#AND', '#OR', '#NEGATE', '#BOGUS');
const oqs: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.tuple(op, fc.array(fc.oneof(path, json, geometry), { maxLength: 3 })).map(([o, args]) => ({ [o]: args })),
    fc.tuple(fc.constantFrom('#AND', '#OR'), fc.array(tie('node'), { maxLength: 3 })).map(([o, xs]) => ({ [o]: xs })),
    tie('node').map((x) => ({ '#NEGATE': x })),
    json,
  ),
})).node;

const manifest = fc.record({
  kind: fc.oneof(fc.constantFrom('catalog.example.io/dataset', 'catalog.example.io/observable', 'catalog.example.io/dataCollection'), fc.string()),
  version: fc.oneof(fc.constantFrom('v1alpha1', 'v1alpha2', 'v1alpha3'), fc.string()),
  metadata: fc.oneof(fc.record({ name: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), fc.string()) }, { requiredKeys: [] }), json),
  spec: fc.oneof(
    fc.record({
      storage_controller: fc.constantFrom('registry.example.io/storageController/storage-raw-cdffs', 'registry.example.io/storageController/storage-tabular', 'x'),
      storage_class: fc.constantFrom('registry.example.io/storageClass/raw', 'registry.example.io/storageClass/tabular', 'y'),
      maintainer: fc.oneof(fc.constant({ contact: 'A <a@b.c>' }), json),
      ref: fc.constantFrom('catalog.example.io/dataset/fuzz-base', 'catalog.example.io/dataset/none', 'zzz'),
      observable_class: fc.constantFrom('catalog.example.io/observableClass/static-geometric-coverage', 'catalog.example.io/observableClass/static-coverage'),
      details: fc.record({ value: fc.oneof(geometry, fc.tuple(fc.integer(), fc.integer())) }),
      published_date: fc.oneof(fc.constant('2024-01-01T00:00:00'), fc.string()),
    }, { requiredKeys: [] }),
    json,
  ),
}, { requiredKeys: [] });

const value = fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 5 }), fc.boolean(), fc.constant(null), fc.constantFrom('2024-01-01T00:00:00Z', 'POINT (1 2)', 'POINT (1'), json);
const rows = fc.array(fc.dictionary(fc.constantFrom('a', 'b', 't', 'g', 'zz'), value, { maxKeys: 4 }), { minLength: 1, maxLength: 4 });

const raw = '/data/catalog.example.io/dataset/fuzz-base';
const filesSnapshot = async () => JSON.stringify((await s.json('POST', `${raw}/list`, { json: {} })).body);
const fileBody = fc.oneof(
  fc.record({
    name: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('a.csv', '/abs', '')),
    mime_type: fc.oneof(fc.constantFrom('text/csv', 'nonsense', null), json),
    metadata: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 3 }), json),
    geo_location: fc.oneof(geometry.map((g) => ({ type: 'Feature', geometry: g, properties: {} })), json),
    size_bytes: fc.integer(),
  }, { requiredKeys: [] }),
  json,
);

describe('fuzz', () => {
  it('random file metadata: created or rejected with the file list unchanged; updates never 5xx', async () => {
    await s.json('POST', raw, { json: { name: 'fixed' } });
    await fc.assert(
      fc.asyncProperty(fileBody, fileBody, async (create, update) => {
        const before = await filesSnapshot();
        const res = await s.json('POST', raw, { json: create });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        if (res.status === 200) {
          await s.req('DELETE', `${raw}/${encodeURIComponent(res.body.name)}`);
        } else {
          expect(await filesSnapshot()).toBe(before);
        }
        const upd = await s.json('PATCH', `${raw}/fixed/metadata`, { json: update });
        expect(upd.status, JSON.stringify(upd.body)).toBeLessThan(500);
        if (upd.status === 200 && upd.body.name !== 'fixed') await s.json('PATCH', `${raw}/${encodeURIComponent(upd.body.name)}/metadata`, { json: { name: 'fixed' } });
      }),
      { numRuns: 80 },
    );
  });

  it('random manifests: 201 or a 4xx; a rejection changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(manifest, async (m) => {
        const before = await catalogSnapshot();
        const res = await s.json('POST', '/catalog', { json: m });
        expect(res.status === 201 || (res.status >= 400 && res.status < 500)).toBe(true);
        if (res.status === 201) {
          expect(res.body.metadata.uuid).toBeTypeOf('string');
          expect((await s.req('DELETE', `/catalog/${res.body.metadata.uuid}`)).status).toBe(204);
        } else {
          expect(typeof res.body.description).toBe('string');
          expect(await catalogSnapshot()).toBe(before);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('random OQS bodies on the catalog, raw list and table list: never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(oqs, async (q) => {
        for (const p of ['/catalog/list', '/data/catalog.example.io/dataset/fuzz-base/list', `${tab}/list`]) {
          const res = await s.json('POST', p, { json: q });
          expect(res.status, `${p} ${JSON.stringify(q)} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
          if (res.status >= 400) expect(res.body.code).toBeTypeOf('string');
        }
      }),
      { numRuns: 150 },
    );
  });

  it('random rows: inserted whole or rejected with the table unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(rows, async (data) => {
        const before = await tableSnapshot();
        const res = await s.json('POST', tab, { json: { data } });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        const after = await tableSnapshot();
        if (res.status === 200) expect(JSON.parse(after).data.length).toBe(JSON.parse(before).data.length + data.length);
        else expect(after).toBe(before);
      }),
      { numRuns: 100 },
    );
  });
});
