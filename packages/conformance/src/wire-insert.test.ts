// Streamed IPC request bodies: batches are decoded as they arrive, a bad batch or an oversized body applies nothing.
import { request } from 'node:http';
import { RecordBatchStreamWriter, Table as ArrowTable, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARROW, decode, idsOf, json, post, schemaBody, wireSchema } from './wire.js';
import { type ConformanceServer, startConformanceServer } from './test-server.js';

let s: ConformanceServer;
beforeAll(async () => {
  s = await startConformanceServer({ ipcBodyLimit: 64 * 1024 });
});
afterAll(async () => s?.close());

const rows = (from: number, n: number, ids?: (number | null)[]) => new ArrowTable({
  id: vectorFromArray(ids ?? Array.from({ length: n }, (_, i) => from + i)),
  depth: vectorFromArray(Float64Array.from({ length: n }, (_, i) => from + i)),
  name: vectorFromArray(Array.from({ length: n }, () => 'x'), new Utf8()),
  geometry: vectorFromArray(Array.from({ length: n }, () => null), new Utf8()),
});
/** One IPC stream of several batches: good ones, and (optionally) a null id in a non-nullable column. */
function stream(batches: ArrowTable[]): Uint8Array {
  const w = new RecordBatchStreamWriter();
  for (const t of batches) for (const b of t.batches) w.write(b);
  return w.finish().toUint8Array(true);
}

async function table(): Promise<string> {
  const id = await s.dataset();
  await post(s, 'sdk/create', { table_id: id }, { body: schemaBody(wireSchema) });
  return id;
}
const ids = async (id: string, tx = '') => idsOf(await decode(await post(s, 'sdk/select', { table_id: id, tx_id: tx }, { json: { query: '1==1', cols: ['id'] } })));

describe('wire: streamed inserts', () => {
  it('several batches in one body are inserted together; the answer counts them', async () => {
    const id = await table();
    const res = await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: stream([rows(1, 3), rows(4, 2), rows(6, 1)]) });
    expect(await res.json()).toEqual({ num_rows: 6 });
    expect(await ids(id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a bad later batch is 400 naming its first row, and nothing of the body is applied (with and without tx_id)', async () => {
    const id = await table();
    const bad = stream([rows(1, 3), rows(4, 2), rows(6, 2, [6, null])]);
    const res = await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: bad });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/batch starting at row 5 of the body.*id/);
    expect(await ids(id)).toEqual([]);
    const { tx_id } = await json(post(s, 'begin', { table_id: id }));
    expect((await post(s, 'sdk/insert', { table_id: id, tx_id }, { body: stream([rows(1, 1)]) })).status).toBe(200);
    expect((await post(s, 'sdk/insert', { table_id: id, tx_id }, { body: bad })).status).toBe(400);
    expect(await ids(id, tx_id)).toEqual([1]);
    expect((await post(s, 'commit', { table_id: id, tx_id })).status).toBe(200);
    expect(await ids(id)).toEqual([1]);
  });

  it('a body cut in the middle of a batch is 400 and applies nothing', async () => {
    const id = await table();
    const whole = stream([rows(1, 50), rows(51, 50)]);
    const res = await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: whole.subarray(0, whole.byteLength - 300) });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/Arrow IPC/);
    expect(await ids(id)).toEqual([]);
  });

  it('a body over ipcBodyLimit is refused and applies nothing, though its first batches were fine', async () => {
    const id = await table();
    const big = stream(Array.from({ length: 12 }, (_, i) => rows(i * 500 + 1, 500)));
    expect(big.byteLength).toBeGreaterThan(64 * 1024);
    const status = await post(s, 'sdk/insert', { table_id: id, tx_id: '' }, { body: big }).then((r) => r.status, () => 'connection closed');
    expect([400, 'connection closed']).toContain(status);
    expect(await ids(id)).toEqual([]);
  });

  it('decodes while the body is still arriving: a bad first batch is answered before the body ends', async () => {
    const id = await table();
    const first = stream([rows(1, 2, [1, null])]);
    const eos = first.byteLength - 8; // hold back the end-of-stream marker: the body is not finished
    const url = new URL(`${s.url}/api/table/v2/sdk/insert?table_id=${id}&tx_id=`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { authorization: `ApiKey ${s.aliceKey}`, 'content-type': ARROW, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.end();
      });
      req.on('error', reject);
      req.write(first.subarray(0, eos));
    });
    expect(status).toBe(400);
    expect(await ids(id)).toEqual([]);
  });
});
