// GeoJSON and FlatGeobuf select answers keep the time budget: a continuation cursor (GeoJSON member
// `cursor`, FlatGeobuf HTTP trailer) resumes exactly after the last feature sent, on the same snapshot.
import { request } from 'node:http';
import { deserialize } from 'flatgeobuf/lib/mjs/geojson.js';
import { RecordBatchStreamWriter, Table as ArrowTable, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, post, schemaBody, wireSchema } from './wire.js';
import { type ConformanceServer, startConformanceServer } from './test-server.js';

let s: ConformanceServer;
beforeAll(async () => {
  s = await startConformanceServer();
});
afterAll(async () => s?.close());

const body = (from: number, n: number) => RecordBatchStreamWriter.writeAll(new ArrowTable({
  id: vectorFromArray(Int32Array.from({ length: n }, (_, i) => from + i)),
  depth: vectorFromArray(Float64Array.from({ length: n }, (_, i) => from + i)),
  name: vectorFromArray(Array.from({ length: n }, () => 'x'), new Utf8()),
  geometry: vectorFromArray(Array.from({ length: n }, (_, i) => `POINT(${from + i} 1)`), new Utf8()),
}).batches).toUint8Array(true);

/** A table of 12 rows inserted as three commits (three batches to cut between). */
async function table(): Promise<string> {
  const id = await s.dataset();
  await post(s, 'sdk/create', { table_id: id }, { body: schemaBody(wireSchema) });
  for (let k = 0; k < 3; k++) await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: body(1 + k * 4, 4) });
  return id;
}

/** POSTs a select over node:http and resolves with the body and the HTTP trailers. */
function withTrailers(id: string, json: unknown, accept: string): Promise<{ status: number; bytes: Buffer; trailers: NodeJS.Dict<string> }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(`${s.url}/api/table/v2/sdk/select?table_id=${id}&tx_id=`), { method: 'POST', headers: { authorization: `ApiKey ${s.aliceKey}`, 'content-type': 'application/json', accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode!, bytes: Buffer.concat(chunks), trailers: res.trailers }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(json));
  });
}

describe('wire: GeoJSON and FlatGeobuf continuations', () => {
  it('GeoJSON: timeout 0 cuts the FeatureCollection with a cursor member; re-posting resumes on the same snapshot', async () => {
    const id = await table();
    const seen: number[] = [];
    let cursor: string | null = null;
    let requests = 0;
    do {
      const fc = await json(post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { query: 'id > 1', timeout: 0, cursor }, accept: 'application/geo+json' }));
      expect(fc.type).toBe('FeatureCollection');
      expect(fc).toHaveProperty('cursor');
      seen.push(...fc.features.map((f: { properties: { id: number } }) => f.properties.id));
      cursor = fc.cursor;
      if (requests++ === 0) await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: body(100, 2) }); // after the snapshot
    } while (cursor);
    expect(requests).toBeGreaterThan(1);
    expect(seen).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('GeoJSON without a budget cut: one collection, cursor null', async () => {
    const id = await table();
    const fc = await json(post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { query: 'id <= 5' }, accept: 'application/geo+json' }));
    expect(fc.cursor).toBeNull();
    expect(fc.features.map((f: { geometry: { coordinates: number[] } }) => f.geometry.coordinates)).toEqual([[1, 1], [2, 1], [3, 1], [4, 1], [5, 1]]);
  });

  it('FlatGeobuf: timeout 0 puts the cursor in the x-halocline-cursor trailer; each answer is a whole file of the next features', async () => {
    const id = await table();
    const seen: number[] = [];
    let cursor: string | null = null;
    let requests = 0;
    do {
      const r = await withTrailers(id, { query: 'id > 1', timeout: 0, cursor }, 'application/flatgeobuf');
      expect(r.status).toBe(200);
      for await (const f of deserialize(new Uint8Array(r.bytes))) seen.push(Number(f.properties!.id));
      cursor = r.trailers['x-halocline-cursor'] || null;
      requests++;
    } while (cursor);
    expect(requests).toBeGreaterThan(1);
    expect(seen).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('a result without geometry is a 400 before the answer starts', async () => {
    const id = await table();
    const res = await post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { cols: ['id'], timeout: 0 }, accept: 'application/geo+json' });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/geometry/);
  });
});
