// Byte-level requests for transactions (ownership, idle timeout, both path spellings) and the raw controller.
import { RecordBatchStreamWriter, Table as ArrowTable, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, idsOf, json, post, schemaBody, wireSchema } from './wire.js';
import { type ConformanceServer, startConformanceServer } from './test-server.js';

let s: ConformanceServer;
beforeAll(async () => {
  s = await startConformanceServer({ txIdleMs: 1000 });
});
afterAll(async () => s?.close());

const body = (from: number, n: number) => RecordBatchStreamWriter.writeAll(new ArrowTable({
  id: vectorFromArray(Int32Array.from({ length: n }, (_, i) => from + i)),
  depth: vectorFromArray(Float64Array.from({ length: n }, (_, i) => from + i)),
  name: vectorFromArray(Array.from({ length: n }, () => 'x'), new Utf8()),
  geometry: vectorFromArray(Array.from({ length: n }, () => null), new Utf8()),
}).batches).toUint8Array(true);

async function table(n: number): Promise<string> {
  const id = await s.dataset();
  await post(s, 'sdk/create', { table_id: id }, { body: schemaBody(wireSchema) });
  await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: body(1, n) });
  return id;
}
const select = async (id: string, tx = '', query = '1==1') => idsOf(await decode(await post(s, 'sdk/select', { table_id: id, tx_id: tx }, { json: { query, cols: ['id'] } })));

describe('wire: transactions', () => {
  it('begin → tx_id; insert and replace inside it; its select sees its writes, others do not; commit (sdk path)', async () => {
    const id = await table(4);
    const { tx_id } = await json(post(s, 'begin', { table_id: id }));
    expect(typeof tx_id).toBe('string');
    expect((await post(s, 'sdk/insert', { table_id: id, tx_id }, { body: body(10, 2) })).status).toBe(200);
    const removed = await decode(await post(s, 'sdk/replace', { table_id: id, tx_id }, { json: { query: 'id <= 2', vars: null } }));
    expect(idsOf(removed)).toEqual([1, 2]);
    expect(await select(id, tx_id)).toEqual([3, 4, 10, 11]);
    const agg = async (tx: string) => (await decode(await post(s, 'sdk/aggregate', { table_id: id, tx_id: tx }, { json: { by: "'TOTAL'", query: 'id >= 3' } }))).batches[0]!.getChild('*')!.get(0);
    expect([await agg(tx_id), await agg('')]).toEqual([4, 2]); // the transaction sees 3, 4, 10, 11; others 3, 4
    expect(await select(id)).toEqual([1, 2, 3, 4]);
    expect((await post(s, 'sdk/commit', { table_id: id, tx_id })).status).toBe(200);
    expect(await select(id)).toEqual([3, 4, 10, 11]);
    expect((await post(s, 'commit', { table_id: id, tx_id })).status).toBe(404);
  });

  it('rollback (both spellings) discards; replace needs a filter and a transaction', async () => {
    const id = await table(3);
    for (const path of ['rollback', 'sdk/rollback']) {
      const { tx_id } = await json(post(s, 'begin', { table_id: id }));
      await post(s, 'sdk/replace', { table_id: id, tx_id }, { json: { query: '1==1' } });
      expect((await post(s, path, { table_id: id, tx_id })).status).toBe(200);
      expect(await select(id)).toEqual([1, 2, 3]);
    }
    const { tx_id } = await json(post(s, 'begin', { table_id: id }));
    expect((await post(s, 'sdk/replace', { table_id: id, tx_id }, { json: {} })).status).toBe(400);
    expect((await post(s, 'sdk/replace', { table_id: id, tx_id: '' }, { json: { query: '1==1' } })).status).toBe(400);
  });

  it('a transaction belongs to its account (403 for another) and its table; unknown ids are 404', async () => {
    const [id, id2] = [await table(1), await table(1)];
    const { tx_id } = await json(post(s, 'begin', { table_id: id }));
    const other = await post(s, 'sdk/select', { table_id: id, tx_id }, { json: { query: '1==1' }, key: s.bobKey });
    expect(other.status).toBe(403);
    expect((await post(s, 'commit', { table_id: id, tx_id }, { key: s.bobKey })).status).toBe(403);
    expect((await post(s, 'sdk/insert', { table_id: id2, tx_id }, { body: body(5, 1) })).status).toBe(400);
    expect((await post(s, 'commit', { table_id: id, tx_id: 'nope' })).status).toBe(404);
    expect((await post(s, 'commit', { table_id: id, tx_id })).status).toBe(200);
  });

  it('a transaction idle longer than the timeout is rolled back; its id then answers 410', async () => {
    const id = await table(2);
    const { tx_id } = await json(post(s, 'begin', { table_id: id }));
    await post(s, 'sdk/insert', { table_id: id, tx_id }, { body: body(7, 1) });
    await new Promise((r) => setTimeout(r, 1600));
    const late = await post(s, 'commit', { table_id: id, tx_id });
    expect(late.status).toBe(410);
    expect(await late.text()).toMatch(/idle/);
    expect(await select(id)).toEqual([1, 2]);
  });
});

describe('wire: raw controller', () => {
  it('upload, list, batch-list, update_meta, download, ingest, delete', async () => {
    const id = await s.dataset();
    const csv = 'a,b\n1,x\n2,y\n';
    const up = await fetch(`${s.url}/api/table/v2/raw/upload?table_id=${id}&name=data.csv`, { method: 'POST', headers: { authorization: `ApiKey ${s.aliceKey}`, 'content-type': 'application/octet-stream' }, body: csv });
    const { raw_id } = await json(up);
    expect(typeof raw_id).toBe('string');
    const { files } = await json(post(s, 'raw/list', { table_id: id }, { json: { query: null, vars: null } }));
    expect(files).toHaveLength(1);
    expect(Object.keys(files[0]).sort()).toEqual(['created', 'geometry', 'id', 'mime-type', 'name', 'properties', 'sha256', 'size', 'updated']);
    expect(files[0]).toMatchObject({ id: raw_id, name: 'data.csv', size: csv.length, 'mime-type': 'text/csv' });
    const bl = await decode(await post(s, 'raw/batch-list', { table_id: id }, { json: {} }));
    expect(bl.batches[0]!.getChild('name')!.get(0)).toBe('data.csv');
    const meta = await json(post(s, 'raw/update_meta', { table_id: id, id: raw_id }, { json: { properties: { k: 'v' }, 'mime-type': 'text/csv' } }));
    expect(meta.properties).toEqual({ k: 'v' });
    expect(await (await post(s, 'raw/download', { table_id: id, id: raw_id })).text()).toBe(csv);
    const plain = await post(s, 'raw/ingest', { table_id: id, id: raw_id, opt: 'append' }, { accept: 'application/json' });
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/); // what the Python and R clients read
    expect(await plain.json()).toMatchObject({ rows: 2, created: true });
    const lines = (await (await post(s, 'raw/ingest', { table_id: id, id: raw_id, opt: 'append' }, { accept: 'application/x-ndjson' })).text()).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.at(-2)).toEqual({ rows: 2, bytes: csv.length, total_bytes: csv.length });
    expect(lines.at(-1)).toMatchObject({ result: { rows: 2, created: false, table_id: id } });
    const missing = await post(s, 'raw/ingest', { table_id: id, id: 'nope', opt: 'append' }, { accept: 'application/x-ndjson' });
    expect(missing.status).toBe(404); // a failure before the first progress line is an ordinary error answer
    expect((await post(s, 'raw/ingest', { table_id: id, id: raw_id, opt: 'sideways' })).status).toBe(400);
    const deleted = await post(s, 'raw/delete', { table_id: id, id: raw_id });
    expect(deleted.status).toBe(200); // 204 is "no such table" to the clients
    expect(await deleted.json()).toEqual({});
    expect((await post(s, 'raw/download', { table_id: id, id: raw_id })).status).toBe(404);
    expect((await post(s, 'raw/upload', { table_id: id, name: 'x.csv' }, { key: s.bobKey, body: new Uint8Array([1]) })).status).toBe(403);
  });
});
