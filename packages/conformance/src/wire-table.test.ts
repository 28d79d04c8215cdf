// Byte-level requests as the Python and R clients send them: create/alter/drop/stats/schema/select/aggregate/insert.
import { readFile } from 'node:fs/promises';
import { CompressionType, RecordBatchStreamWriter, Table as ArrowTable, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARROW, decode, idsOf, json, post, schemaBody, wireSchema } from './wire.js';
import { type ConformanceServer, startConformanceServer } from './test-server.js';

let s: ConformanceServer;
beforeAll(async () => {
  s = await startConformanceServer();
});
afterAll(async () => s?.close());

const rows = (from: number, n: number) => new ArrowTable({
  id: vectorFromArray(Int32Array.from({ length: n }, (_, i) => from + i)),
  depth: vectorFromArray(Float64Array.from({ length: n }, (_, i) => (from + i) * 10)),
  name: vectorFromArray(Array.from({ length: n }, (_, i) => ((from + i) % 2 ? 'odd' : 'even')), new Utf8()),
  geometry: vectorFromArray(Array.from({ length: n }, (_, i) => `POINT(${(from + i) % 90} 1)`), new Utf8()),
});
const ipc = (t: ReturnType<typeof rows>, compressionType?: CompressionType) => {
  const w = new RecordBatchStreamWriter(compressionType !== undefined ? { compressionType } : {});
  w.writeAll(t.batches.map((b) => b));
  return w.toUint8Array(true);
};

async function table(n = 0): Promise<string> {
  const id = await s.dataset();
  expect((await post(s, 'sdk/create', { table_id: id }, { body: schemaBody(wireSchema) })).status).toBe(200);
  if (n > 0) expect((await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: ipc(rows(1, n)) })).status).toBe(200);
  return id;
}

describe('wire: table lifecycle', () => {
  it('create (schema + empty batch), create again 409 plain text, schema fetch, 204 for a missing table', async () => {
    const id = await s.dataset();
    const missing = await post(s, 'sdk/select', { table_id: id }, { json: { query: '"fetch" == "schema"' } });
    expect(missing.status).toBe(204);
    expect((await post(s, 'sdk/create', { table_id: id }, { body: schemaBody(wireSchema) })).status).toBe(200);
    const again = await post(s, 'sdk/create', { table_id: id }, { body: schemaBody(wireSchema) });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/^text\/plain/);
    const fetched = await decode(await post(s, 'sdk/select', { table_id: id }, { json: { query: '"fetch" == "schema"' } }));
    expect(fetched.schema.fields.map((f) => f.name)).toEqual(['id', 'depth', 'name', 'geometry']);
    expect(fetched.batches.reduce((n, b) => n + b.numRows, 0)).toBe(0);
  });

  it('a bad schema or bad IPC body is 400 with a plain-text body; no credentials is 401', async () => {
    const id = await s.dataset();
    const bad = await post(s, 'sdk/create', { table_id: id }, { body: new Uint8Array([1, 2, 3, 4]) });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await bad.text()).toMatch(/Arrow IPC/);
    expect((await post(s, 'stats', { table_id: id }, { key: null })).status).toBe(401);
  });

  it('alter renames through the empty batch metadata `rename`; drop answers 204 once the table is gone', async () => {
    const id = await table(3);
    const renamed = wireSchema.fields.map((f) => (f.name === 'depth' ? f.clone({ name: 'z' }) : f));
    const res = await post(s, 'sdk/alter', { table_id: id }, { body: schemaBody(new (wireSchema.constructor as never as typeof import('apache-arrow').Schema)(renamed), new Map([['rename', '{"z": "depth"}']])) });
    expect(res.status, await res.clone().text()).toBe(200);
    const d = await decode(await post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { query: 'z >= 20', cols: ['id', 'z'] } }));
    expect(idsOf(d)).toEqual([2, 3]);
    expect((await post(s, 'drop', { table_id: id })).status).toBe(200);
    expect((await post(s, 'drop', { table_id: id })).status).toBe(204);
    expect((await post(s, 'stats', { table_id: id })).status).toBe(204);
  });

  it('stats and truncate', async () => {
    const id = await table(5);
    const stats = await json(post(s, 'stats', { table_id: id }));
    expect(stats).toMatchObject({ num_rows: 5 });
    expect(stats.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'depth', 'name', 'geometry']);
    expect(Object.keys(stats.columns[0]).sort()).toEqual(['max', 'metadata', 'min', 'name', 'null_count', 'num_values', 'type']);
    expect((await post(s, 'truncate', { table_id: id })).status).toBe(200);
    expect((await json(post(s, 'stats', { table_id: id }))).num_rows).toBe(0);
  });
});

describe('wire: select', () => {
  it('streams Arrow IPC with the JSON trailer; bind variables plain, typed and the integer-true quirk', async () => {
    const id = await table(10);
    const res = await post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { query: 'depth > ? and name == ?', cols: null, cursor: null, vars: [40, 'even'], timeout: 30 } });
    expect(res.headers.get('content-type')).toBe(ARROW);
    const d = await decode(res);
    expect(idsOf(d)).toEqual([6, 8, 10]);
    expect(d.trailer).toMatchObject({ cursor: null });
    expect(Date.parse(d.trailer!.ended)).toBeGreaterThanOrEqual(Date.parse(d.trailer!.started));
    const typed = await decode(await post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { query: 'depth < $d and (id == 1) == $t', vars: { d: { type: 'float', value: 30 }, t: { type: 'integer', value: true } } } }));
    expect(idsOf(typed)).toEqual([1]);
  });

  it('a bad query is 400 with a plain-text message naming the token', async () => {
    const id = await table(1);
    const res = await post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { query: 'depth >> 3' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/>/);
  });

  it('timeout 0: every answer ends with a cursor (batch metadata and trailer); re-posting resumes on the same snapshot', async () => {
    const id = await table();
    for (let k = 0; k < 3; k++) await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: ipc(rows(1 + k * 4, 4)) });
    const body = { query: 'id > 1', cols: ['id'], vars: null, timeout: 0 };
    const seen: number[] = [];
    let cursor: string | null = null;
    let requests = 0;
    do {
      const d = await decode(await post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { ...body, cursor } }));
      seen.push(...idsOf(d));
      const inBatch = d.batches.map((b) => b.metadata.get('cursor')).find((c) => c !== undefined) ?? null;
      expect(inBatch).toBe(d.trailer!.cursor);
      cursor = d.trailer!.cursor;
      if (requests++ === 0) await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: ipc(rows(100, 2)) }); // not in the pinned snapshot
    } while (cursor);
    expect(requests).toBeGreaterThan(1);
    expect(seen).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const gone = await post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { ...body, cursor: 'feedbeef' } });
    expect(gone.status).toBe(410);
  });

  it('negotiates NDJSON, GeoJSON and FlatGeobuf', async () => {
    const id = await table(3);
    const nd = await post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { query: 'id < 3' }, accept: 'application/x-ndjson' });
    expect((await nd.text()).trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { id: 1, depth: 10, name: 'odd', geometry: 'POINT(1 1)' }, { id: 2, depth: 20, name: 'even', geometry: 'POINT(2 1)' }, { '@@end': true },
    ]);
    const gj = await json(post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: {}, accept: 'application/geo+json' }));
    expect(gj.type).toBe('FeatureCollection');
    expect(gj.features[0]).toMatchObject({ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { id: 1 } });
    const fgb = await post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: {}, accept: 'application/flatgeobuf' });
    const bytes = new Uint8Array(await fgb.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0x66, 0x67, 0x62]); // "fgb"
  });
});

describe('wire: aggregate and insert', () => {
  it('answers partial aggregates: key "", <f>_sum/_count/_min/_max, *; h3 keys as cell strings', async () => {
    const id = await table(10);
    const d = await decode(await post(s, 'sdk/aggregate', { table_id: id, tx_id: '' }, { json: { query: 'id <= 4', by: 'name', aggr: { depth: 'mean' }, vars: null } }));
    const b = d.batches[0]!;
    // "" is written as an absent flatbuffer name (pyarrow and R read ""; apache-arrow JS reads null)
    expect(b.schema.fields.map((f) => (f.name === null || String(f.name) === 'null' ? '' : f.name))).toEqual(['', 'depth_sum', 'depth_count', 'depth_min', 'depth_max', '*']);
    expect(b.toArray().map((r) => Object.values(r.toJSON()))).toEqual([['even', 60, 2, 20, 40, 2], ['odd', 40, 2, 10, 30, 2]]);
    const h3 = await decode(await post(s, 'sdk/aggregate', { table_id: id, tx_id: '' }, { json: { by: 'h3(geometry, 2)', aggr: {} } }));
    expect(String(h3.batches[0]!.getChildAt(0)!.get(0))).toMatch(/^[0-9a-f]{15}$/);
    const total = await decode(await post(s, 'sdk/aggregate', { table_id: id, tx_id: '' }, { json: {} }));
    expect(total.batches[0]!.getChild('*')!.get(0)).toBe(10);
  });

  it('inserts LZ4-compressed and ZSTD-compressed record batches as pyarrow writes them', async () => {
    const id = await table();
    const lz4 = await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: ipc(rows(1, 50), CompressionType.LZ4_FRAME) });
    expect(lz4.status, await lz4.clone().text()).toBe(200);
    const zid = await s.dataset();
    const schema = (await import('apache-arrow')).tableFromIPC(await readFile(new URL('../fixtures/zstd-batches.arrows', import.meta.url))).schema;
    await post(s, 'sdk/create', { table_id: zid }, { body: schemaBody(schema) });
    const zstd = await post(s, 'sdk/insert', { table_id: zid, tx_id: '' }, { body: await readFile(new URL('../fixtures/zstd-batches.arrows', import.meta.url)) });
    expect(zstd.status, await zstd.clone().text()).toBe(200);
    expect(await json(zstd)).toEqual({ num_rows: 1000 });
    const d = await decode(await post(s, 'sdk/select', { table_id: zid, tx_id: '' }, { json: { query: 'id == 999', cols: ['id', 'name'] } }));
    expect(d.batches[0]!.get(0)!.toJSON()).toEqual({ id: 999, name: 'cast-4' });
    const l = await decode(await post(s, 'sdk/select', { table_id: id, tx_id: '' }, { json: { cols: ['id'] } }));
    expect(idsOf(l)).toHaveLength(50);
  });

  it('bad data is 400 plain text and stores nothing', async () => {
    const id = await table(2);
    const wrong = new ArrowTable({ id: vectorFromArray(['x'], new Utf8()), depth: vectorFromArray([1]), name: vectorFromArray(['a'], new Utf8()), geometry: vectorFromArray(['POINT(1 1)'], new Utf8()) });
    const res = await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: ipc(wrong as never) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await json(post(s, 'stats', { table_id: id }))).num_rows).toBe(2);
  });
});
