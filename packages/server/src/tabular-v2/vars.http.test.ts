// Bind variables over HTTP: a value in `vars` that the query does not use is a 400 naming it, and changes nothing.
import { Field, Int32, RecordBatch, Schema, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let table = '';
const arrow = { 'content-type': 'application/vnd.apache.arrow.stream' };
const schema = new Schema([new Field('id', new Int32(), false), new Field('s', new Utf8(), true)]);
const ipc = (...batches: RecordBatch[]): Buffer => Buffer.from(tableToIPC(new Table(schema, batches), 'stream'));
const batch = (ids: number[]) => new RecordBatch(schema, new RecordBatch({ id: vectorFromArray(ids, new Int32()).data[0]!, s: vectorFromArray(ids.map((i) => `r${i}`), new Utf8()).data[0]! }).data);
const v2 = (op: string, tx = '') => `/api/table/v2/${op}?table_id=${table}${tx ? `&tx_id=${tx}` : ''}`;

beforeAll(async () => {
  s = await startTestServer();
  table = (await s.json('POST', '/catalog', { json: manifests.dataset('vars-v2', 'tabular') })).body.metadata.uuid;
  expect((await s.req('POST', v2('sdk/create'), { headers: arrow, body: ipc() })).status).toBe(200);
  expect((await s.req('POST', v2('sdk/insert'), { headers: arrow, body: ipc(batch([1, 2, 3, 4])) })).status).toBe(200);
});
afterAll(() => s.close());

async function refused(res: Response, name: string): Promise<void> {
  expect(res.status).toBe(400);
  expect(res.headers.get('x-halocline-error')).toBe('QuerySyntax');
  expect(await res.text()).toMatch(new RegExp(`\\$${name} in vars is not used by the query`));
}

describe('vars the query does not use', () => {
  it('are a 400 naming the variable in select, aggregate and a raw list', async () => {
    await refused(await s.req('POST', v2('sdk/select'), { json: { query: 'id > $n', vars: { n: 1, nn: 2 } } }), 'nn');
    await refused(await s.req('POST', v2('sdk/select'), { json: { vars: { n: 1 } } }), 'n');
    await refused(await s.req('POST', v2('sdk/aggregate'), { json: { by: 's', query: 'id > $n', vars: { n: 1, extra: true } } }), 'extra');
    await refused(await s.req('POST', `/api/table/v2/raw/list?table_id=${table}`, { json: { query: 'size > $n', vars: { n: 1, m: 2 } } }), 'm');
    // used ones pass, shared between the group-by and the query of an aggregate
    expect((await s.req('POST', v2('sdk/select'), { json: { query: 'id > $n', vars: { n: 2 } } })).status).toBe(200);
    expect((await s.req('POST', v2('sdk/aggregate'), { json: { by: 'id > $n', query: 'id < $m', vars: { n: 1, m: 4 } } })).status).toBe(200);
  });

  it('are a 400 in a transaction\'s replace, which removes nothing; the transaction goes on', async () => {
    const tx = (await s.json('POST', v2('begin'))).body.tx_id as string;
    await refused(await s.req('POST', v2('sdk/replace', tx), { json: { query: 'id < $n', vars: { n: 3, x: 0 } } }), 'x');
    const replaced = await s.req('POST', v2('sdk/replace', tx), { json: { query: 'id < $n', vars: { n: 2 } } });
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    expect((await s.req('POST', v2('commit', tx))).status).toBe(200);
    expect((await s.json('POST', v2('stats'))).body.num_rows).toBe(3);
  });
});
