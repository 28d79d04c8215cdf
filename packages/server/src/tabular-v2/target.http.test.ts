// What every v2 operation answers for the table_id it is given: 204 when the UUID names no dataset (the
// clients' "does not exist", as for a dataset without a table), 400 for a malformed id or a raw dataset,
// 403 for a write to another account's dataset.
import { Field, Int32, RecordBatch, Schema, Table, tableToIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type RequestOptions, type TestServer } from '../test-util/server.js';

let s: TestServer;
let raw = '';
let empty = ''; // a tabular dataset without a table
let alices = ''; // alice's tabular dataset with a table
const NOBODY = '0b6c0000-0000-4000-8000-00000000beef';

const schema = new Schema([new Field('id', new Int32(), false)]);
const ipc = Buffer.from(tableToIPC(new Table(schema, [new RecordBatch(schema, undefined)]), 'stream'));
const arrow = { 'content-type': 'application/vnd.apache.arrow.stream' };
const octets = { 'content-type': 'application/octet-stream' };

// every v2 operation with a body it would accept, and whether it writes
const OPS: readonly { op: string; write: boolean; opts: Omit<RequestOptions, 'key'>; tx?: boolean }[] = [
  { op: 'sdk/create', write: true, opts: { headers: arrow, body: ipc } },
  { op: 'sdk/alter', write: true, opts: { headers: arrow, body: ipc } },
  { op: 'drop', write: true, opts: {} },
  { op: 'truncate', write: true, opts: {} },
  { op: 'stats', write: false, opts: {} },
  { op: 'sdk/select', write: false, opts: { json: { query: '"fetch" == "schema"' } } },
  { op: 'sdk/select', write: false, opts: { json: { query: 'id > 1', cols: null, cursor: '' } } },
  { op: 'sdk/aggregate', write: false, opts: { json: { by: "'TOTAL'", aggr: { id: 'sum' } } } },
  { op: 'begin', write: true, opts: {} },
  { op: 'sdk/insert', write: true, opts: { headers: arrow, body: ipc } },
  { op: 'sdk/replace', write: true, opts: { json: { query: '1==1' } }, tx: true },
  { op: 'commit', write: true, opts: {}, tx: true },
  { op: 'sdk/commit', write: true, opts: {}, tx: true },
  { op: 'rollback', write: true, opts: {}, tx: true },
  { op: 'sdk/rollback', write: true, opts: {}, tx: true },
  { op: 'raw/list', write: false, opts: { json: {} } },
  { op: 'raw/batch-list', write: false, opts: { json: {} } },
  { op: 'raw/upload', write: true, opts: { headers: octets, body: 'bytes' } },
  { op: 'raw/update_meta', write: true, opts: { json: { name: 'b.txt' } } },
  { op: 'raw/download', write: false, opts: {} },
  { op: 'raw/delete', write: true, opts: {} },
  { op: 'raw/ingest', write: true, opts: {} },
];

const call = (op: (typeof OPS)[number], tableId: string, key: string) => {
  const extra = op.op.startsWith('raw/') ? (op.op === 'raw/upload' ? '&name=a.txt' : op.op === 'raw/list' || op.op === 'raw/batch-list' ? '' : '&id=a.txt') : '';
  const tx = op.tx ? '&tx_id=6a1e0000-0000-4000-8000-000000000001' : '';
  return s.req('POST', `/api/table/v2/${op.op}?table_id=${encodeURIComponent(tableId)}${tx}${extra}`, { key, ...op.opts });
};

beforeAll(async () => {
  s = await startTestServer();
  raw = (await s.json('POST', '/catalog', { json: manifests.dataset('target-raw'), key: s.aliceKey })).body.metadata.uuid;
  empty = (await s.json('POST', '/catalog', { json: manifests.dataset('target-empty', 'tabular'), key: s.aliceKey })).body.metadata.uuid;
  alices = (await s.json('POST', '/catalog', { json: manifests.dataset('target-alice', 'tabular'), key: s.aliceKey })).body.metadata.uuid;
  expect((await s.req('POST', `/api/table/v2/sdk/create?table_id=${alices}`, { key: s.aliceKey, headers: arrow, body: ipc })).status).toBe(200);
});
afterAll(() => s.close());

describe('table_id naming no dataset', () => {
  it('every operation answers 204 with no body, for the owner-to-be and for anyone else', async () => {
    for (const op of OPS) {
      for (const key of [s.aliceKey, s.bobKey]) {
        const res = await call(op, NOBODY, key);
        const text = await res.text();
        expect(res.status, `${op.op}: ${text}`).toBe(204);
        expect(text).toBe('');
        expect(res.headers.get('x-halocline-error'), op.op).toBeNull();
      }
    }
  });

  it('a UUID of another kind of resource (a data collection) names no dataset either', async () => {
    const collection = await s.json('POST', '/catalog', { key: s.aliceKey, json: manifests.collection('not-a-dataset') });
    expect(collection.status).toBe(201);
    expect((await s.req('POST', `/api/table/v2/stats?table_id=${collection.body.metadata.uuid}`, { key: s.aliceKey })).status).toBe(204);
  });

  it('answers as a tabular dataset without a table does, for the operations that need one', async () => {
    for (const op of ['stats', 'drop', 'truncate', 'begin', 'sdk/alter', 'sdk/insert']) {
      const spec = OPS.find((o) => o.op === op)!;
      expect((await call(spec, empty, s.aliceKey)).status, op).toBe(204);
    }
  });
});

describe('table_id the clients cannot use', () => {
  it('a malformed id is a 400 saying table_id must be a UUID, for every operation', async () => {
    for (const op of OPS) {
      for (const id of ['not-a-uuid', `${NOBODY}x`, 'catalog.example.io/dataset/target-empty']) {
        const res = await call(op, id, s.aliceKey);
        expect(res.status, `${op.op} ${id}`).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await res.text()).toMatch(/^the query parameter table_id must be the dataset UUID, got /);
      }
    }
  });

  it('a missing table_id is a 400', async () => {
    const res = await s.req('POST', '/api/table/v2/stats', { key: s.aliceKey });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/table_id .* is required/);
  });

  it('a raw dataset is a 400 naming its storage class, for every operation', async () => {
    for (const op of OPS) {
      const res = await call(op, raw, s.aliceKey);
      expect(res.status, op.op).toBe(400);
      expect(await res.text()).toMatch(/tabular v2 needs a tabular dataset/);
    }
  });

  it("a write to another account's dataset is a 403; reads answer", async () => {
    for (const op of OPS) {
      const res = await call(op, alices, s.bobKey);
      const text = await res.text();
      if (op.write) {
        expect(res.status, `${op.op}: ${text}`).toBe(403);
        expect(res.headers.get('x-halocline-error')).toBe('Forbidden');
      } else {
        expect([200, 404], `${op.op}: ${res.status} ${text}`).toContain(res.status); // raw/download of a file that is not there: 404
      }
    }
  });
});
