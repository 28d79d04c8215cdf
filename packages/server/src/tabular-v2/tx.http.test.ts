// HTTP transactions under concurrent requests: commit and rollback wait their turn instead of ending a running insert.
import { Field, Int32, RecordBatch, Schema, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatedBody } from '../test-util/gated-body.js';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let table = '';
const arrow = { 'content-type': 'application/vnd.apache.arrow.stream' };
const schema = new Schema([new Field('id', new Int32(), false), new Field('s', new Utf8(), true)]);
const ipc = (...batches: RecordBatch[]): Buffer => Buffer.from(tableToIPC(new Table(schema, batches), 'stream'));
const batch = (ids: number[], text = 'x') => new RecordBatch(schema, new RecordBatch({ id: vectorFromArray(ids, new Int32()).data[0]!, s: vectorFromArray(ids.map(() => text), new Utf8()).data[0]! }).data);
const v2 = (op: string, tx = '') => `/api/table/v2/${op}?table_id=${table}${tx ? `&tx_id=${tx}` : ''}`;

beforeAll(async () => {
  s = await startTestServer();
  table = (await s.json('POST', '/catalog', { json: manifests.dataset('tx-v2', 'tabular') })).body.metadata.uuid;
  expect((await s.req('POST', v2('sdk/create'), { headers: arrow, body: ipc() })).status).toBe(200);
});
afterAll(() => s.close());

describe('commit and rollback while an insert into the transaction is running', () => {
  it('answer 409 TransactionBusy and leave the transaction open; the insert completes and commits afterwards', async () => {
    const tx = (await s.json('POST', v2('begin'))).body.tx_id as string;
    const big = batch(Array.from({ length: 32 }, (_, i) => i), 'y'.repeat(1 << 20)); // 32 MiB of text
    const bytes = ipc(big, batch([100, 101]));
    const gated = gatedBody(bytes, bytes.length - 1024);
    const insert = s.req('POST', v2('sdk/insert', tx), { headers: arrow, body: gated.body });
    await gated.reading;
    for (const op of ['commit', 'rollback', 'sdk/commit']) {
      const res = await s.req('POST', v2(op, tx));
      expect(res.status, op).toBe(409);
      expect(res.headers.get('x-halocline-error')).toBe('TransactionBusy');
      expect(await res.text()).toMatch(/in use by 1 request/);
    }
    gated.release();
    const done = await insert;
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await done.json()).toEqual({ num_rows: 34 });
    expect((await s.json('POST', v2('commit', tx))).status).toBe(200);
    expect((await s.json('POST', v2('stats'))).body.num_rows).toBe(34);
  });
});

describe('open transactions per account', () => {
  it('an account holding 100 open transactions is refused a 101st (409 TooManyOpen); another account\'s transaction is untouched', async () => {
    const alice = (await s.json('POST', '/catalog', { json: manifests.dataset('tx-alice', 'tabular'), key: s.aliceKey })).body.metadata.uuid as string;
    expect((await s.req('POST', `/api/table/v2/sdk/create?table_id=${alice}`, { key: s.aliceKey, headers: arrow, body: ipc() })).status).toBe(200);
    const mine = (await s.json('POST', `/api/table/v2/begin?table_id=${alice}`, { key: s.aliceKey })).body.tx_id as string;
    const bob = (await s.json('POST', '/catalog', { json: manifests.dataset('tx-bob', 'tabular'), key: s.bobKey })).body.metadata.uuid as string;
    expect((await s.req('POST', `/api/table/v2/sdk/create?table_id=${bob}`, { key: s.bobKey, headers: arrow, body: ipc() })).status).toBe(200);
    for (let i = 0; i < 100; i++) expect((await s.req('POST', `/api/table/v2/begin?table_id=${bob}`, { key: s.bobKey })).status).toBe(200);
    const refused = await s.req('POST', `/api/table/v2/begin?table_id=${bob}`, { key: s.bobKey });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('x-halocline-error')).toBe('TooManyOpen');
    expect((await s.req('POST', `/api/table/v2/commit?table_id=${alice}&tx_id=${mine}`, { key: s.aliceKey })).status).toBe(200);
  });
});

describe('a bad insert into a transaction', () => {
  it('is a 400 naming the row and column that adds nothing; the transaction goes on, and commit or rollback applies exactly its good inserts', async () => {
    const id = (await s.json('POST', '/catalog', { json: manifests.dataset('tx-bad-insert', 'tabular') })).body.metadata.uuid as string;
    const at = (op: string, tx = '') => `/api/table/v2/${op}?table_id=${id}${tx ? `&tx_id=${tx}` : ''}`;
    expect((await s.req('POST', at('sdk/create'), { headers: arrow, body: ipc() })).status).toBe(200);
    const nullId = new RecordBatch(schema, new RecordBatch({ id: vectorFromArray([7, null, 9], new Int32()).data[0]!, s: vectorFromArray(['a', 'b', 'c'], new Utf8()).data[0]! }).data);
    const ids = async () => (await s.json('POST', at('stats'))).body.num_rows as number;
    for (const end of ['commit', 'rollback']) {
      const tx = (await s.json('POST', at('begin'))).body.tx_id as string;
      expect((await s.req('POST', at('sdk/insert', tx), { headers: arrow, body: ipc(batch([1, 2])) })).status).toBe(200);
      // the bad batch comes second in its body: the message names where it starts and its bad row
      const bad = await s.req('POST', at('sdk/insert', tx), { headers: arrow, body: ipc(batch([3]), nullId) });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('x-halocline-error')).toBe('InvalidData');
      expect(await bad.text()).toBe('in the record batch starting at row 1 of the body: row 1, column "id": null in a non-nullable column');
      expect((await s.req('POST', at('sdk/insert', tx), { headers: arrow, body: ipc(batch([4])) })).status).toBe(200);
      const before = await ids();
      expect((await s.json('POST', at(end, tx))).status).toBe(200);
      expect(await ids()).toBe(before + (end === 'commit' ? 3 : 0));
    }
  });
});

describe('a replace whose answer the client cut off', () => {
  it('leaves its transaction unable to commit (409 TransactionBroken, rolled back): nothing it removed is lost', async () => {
    const t = (await s.json('POST', '/catalog', { json: manifests.dataset('tx-v2-cut', 'tabular') })).body.metadata.uuid as string;
    const at = (op: string, tx = '') => `/api/table/v2/${op}?table_id=${t}${tx ? `&tx_id=${tx}` : ''}`;
    expect((await s.req('POST', at('sdk/create'), { headers: arrow, body: ipc() })).status).toBe(200);
    const rows = 200_000;
    for (let from = 0; from < rows; from += 50_000) {
      expect((await s.req('POST', at('sdk/insert'), { headers: arrow, body: ipc(batch(Array.from({ length: 50_000 }, (_, i) => from + i), 'z'.repeat(100))) })).status).toBe(200);
    }
    const tx = (await s.json('POST', at('begin'))).body.tx_id as string;
    const cut = new AbortController();
    const res = await fetch(`${s.url}${at('sdk/replace', tx)}`, { method: 'POST', headers: { authorization: `ApiKey ${s.adminKey}`, 'content-type': 'application/json' }, body: '{"query": "1==1"}', signal: cut.signal });
    expect(res.status).toBe(200);
    await res.body!.getReader().read(); // the first bytes of ~20 MB, then the client goes
    cut.abort();
    // the server sees the connection close once its stream stops
    let commit: Response;
    do {
      await new Promise((r) => setTimeout(r, 50));
      commit = await s.req('POST', at('commit', tx));
    } while (commit.status === 409 && commit.headers.get('x-halocline-error') === 'TransactionBusy');
    expect(commit.status).toBe(409);
    expect(commit.headers.get('x-halocline-error')).toBe('TransactionBroken');
    expect(await commit.text()).toMatch(/was cut off before all its rows were sent.*rolled back/);
    expect((await s.json('POST', at('stats'))).body.num_rows).toBe(rows);
    expect((await s.req('POST', at('commit', tx))).status).toBe(404); // gone
    // a replace read to its end commits as before
    const whole = (await s.json('POST', at('begin'))).body.tx_id as string;
    const all = await s.req('POST', at('sdk/replace', whole), { json: { query: 'id < 10' } });
    await all.arrayBuffer();
    expect((await s.req('POST', at('commit', whole))).status).toBe(200);
    expect((await s.json('POST', at('stats'))).body.num_rows).toBe(rows - 10);
  }, 60_000);
});
