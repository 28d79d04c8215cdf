// Geometric coverages over HTTP: an invalid geometry is a 400 where it comes in, and never a 500 in a filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, square, startTestServer, type TestServer } from '../test-util/server.js';
import type { Manifest } from './resource.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.json('POST', '/catalog', { json: manifests.dataset('geo-valid') });
});
afterAll(() => s.close());

// a bowtie: its ring crosses itself at (22, 22)
const bowtie = { type: 'Polygon', coordinates: [[[20, 20], [24, 24], [24, 20], [20, 24], [20, 20]]] };
const triangle = { type: 'Polygon', coordinates: [[[22, 22], [23, 21], [23, 23], [22, 22]]] };
const SELF_INTERSECTION = 'is not a valid geometry: Self-intersection at (22, 22)';
const obsKind = { '#EQUALS': ['$kind', 'catalog.example.io/observable'] };
const names = (body: { results: { metadata: { name: string } }[] }) => body.results.map((r) => r.metadata.name).sort();

describe('writing a coverage', () => {
  it('an observable whose geometric coverage is not a valid geometry is a 400 naming the field and the problem', async () => {
    const bare = await s.json('POST', '/catalog', { json: manifests.geoObservable('bowtie', 'geo-valid', bowtie) });
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ code: 'InvalidManifest', description: `spec.details.value: ${SELF_INTERSECTION}` });
    const feature = await s.json('POST', '/catalog', { json: manifests.geoObservable('bowtie', 'geo-valid', { type: 'Feature', geometry: bowtie, properties: {} }) });
    expect(feature.body.description).toBe(`spec.details.value.geometry: ${SELF_INTERSECTION}`);
    expect((await s.json('GET', '/catalog/catalog.example.io/observable/bowtie')).status).toBe(404);
  });

  it('an update to an invalid coverage is a 400 and leaves the resource as it was', async () => {
    expect((await s.json('POST', '/catalog', { json: manifests.geoObservable('to-bowtie', 'geo-valid', square(20, 20, 4)) })).status).toBe(201);
    const patch = await s.json('PATCH', '/catalog?kind=catalog.example.io/observable&either_id=to-bowtie', { json: manifests.geoObservable('to-bowtie', 'geo-valid', bowtie) });
    expect(patch.status).toBe(400);
    expect(patch.body.description).toBe(`spec.details.value: ${SELF_INTERSECTION}`);
    expect((await s.json('GET', '/catalog/catalog.example.io/observable/to-bowtie')).body.spec.details.value).toEqual(square(20, 20, 4));
  });

  it('a dataset holding a geometry at spec.details.value (which the spatial index reads) is checked too', async () => {
    const geojson = await s.json('POST', '/catalog', { json: manifests.dataset('ds-bowtie', 'raw', { details: { value: bowtie } }) });
    expect(geojson.body).toEqual({ code: 'InvalidManifest', description: `spec.details.value: ${SELF_INTERSECTION}` });
    const wkt = await s.json('POST', '/catalog', { json: manifests.dataset('ds-bowtie', 'raw', { details: { value: 'POLYGON ((20 20, 24 24, 24 20, 20 24, 20 20))' } }) });
    expect(wkt.body.description).toBe(`spec.details.value: ${SELF_INTERSECTION}`);
    // what is not a geometry stays free-form
    expect((await s.json('POST', '/catalog', { json: manifests.dataset('ds-details', 'raw', { details: { value: 'text' } }) })).status).toBe(201);
  });
});

describe('spatial filters', () => {
  beforeAll(async () => {
    await s.json('POST', '/catalog', { json: manifests.geoObservable('box', 'geo-valid', square(21, 21, 2)) });
    await s.json('POST', '/catalog', { json: manifests.geoObservable('mixed', 'geo-valid', { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [22, 22] }, square(20, 20, 5)] }) });
    // as stored before coverages were checked on write: straight into the store
    const stored = manifests.geoObservable('stored-bowtie', 'geo-valid', bowtie) as unknown as Manifest;
    await s.server.app.halocline.catalog.create(stored, 'apikey:legacy');
  });

  it('a stored coverage jsts cannot compare matches no spatial operator: 200 with the others, never a 500', async () => {
    const q = (op: string) => s.json('POST', '/catalog/list', { json: { '#AND': [obsKind, { [op]: ['$spec.details.value.geometry', triangle] }] } });
    const intersects = await q('#ST_INTERSECTS');
    expect(intersects.status).toBe(200);
    expect(names(intersects.body)).toEqual(['box', 'mixed', 'to-bowtie']);
    const contains = await q('#ST_CONTAINS');
    expect(contains.status).toBe(200);
    expect(names(contains.body)).toEqual(['box', 'mixed', 'to-bowtie']);
    for (const op of ['#ST_WITHIN', '#ST_EQUALS']) expect(await q(op)).toMatchObject({ status: 200, body: { results: [] } });
  });

  it('an invalid geometry literal is a 400 naming the operator and the problem', async () => {
    const res = await s.json('POST', '/catalog/list', { json: { '#AND': [obsKind, { '#ST_WITHIN': ['$spec.details.value', bowtie] }] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'InvalidQuery', description: `invalid OQS filter at #AND[1].#ST_WITHIN[1]: the #ST_WITHIN geometry ${SELF_INTERSECTION}` });
  });
});
