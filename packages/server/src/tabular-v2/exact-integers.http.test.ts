// Integers beyond 2^53 in JSON bind variables reach the engine exactly (JSON.parse would round them to the
// neighbouring double, which matches another int64 row).
import { Field, Int64, RecordBatch, Schema, Table, Utf8, tableFromIPC, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let table = '';
const arrow = { 'content-type': 'application/vnd.apache.arrow.stream' };
const json = { 'content-type': 'application/json' };
const schema = new Schema([new Field('id', new Int64(), false), new Field('s', new Utf8(), true)]);
const EVEN = 9007199254740992n; // 2^53: the double JSON.parse makes of ...993
const ODD = EVEN + 1n;
const v2 = (op: string, tx = '') => `/api/table/v2/${op}?table_id=${table}${tx ? `&tx_id=${tx}` : ''}`;

beforeAll(async () => {
  s = await startTestServer();
  table = (await s.json('POST', '/catalog', { json: manifests.dataset('exact-integers', 'tabular') })).body.metadata.uuid;
  const batch = new RecordBatch({ id: vectorFromArray([EVEN, ODD, -ODD], new Int64()).data[0]!, s: vectorFromArray(['even', 'odd', 'minus odd'], new Utf8()).data[0]! });
  expect((await s.req('POST', v2('sdk/create'), { headers: arrow, body: Buffer.from(tableToIPC(new Table(schema, []), 'stream')) })).status).toBe(200);
  expect((await s.req('POST', v2('sdk/insert'), { headers: arrow, body: Buffer.from(tableToIPC(new Table([batch]), 'stream')) })).status).toBe(200);
});
afterAll(() => s.close());

// the `s` of the rows a select with this JSON text (integers written out in full) answers
async function select(body: string, tx = ''): Promise<string[]> {
  const res = await s.req('POST', v2('sdk/select', tx), { headers: json, body });
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200);
  return [...tableFromIPC(new Uint8Array(await res.arrayBuffer()))].map((r) => String(r.s)).sort();
}

describe('integers beyond 2^53 in vars', () => {
  it('select the row they name, plain or typed, by name or by position', async () => {
    expect(await select(`{"query": "id == $v", "vars": {"v": ${ODD}}}`)).toEqual(['odd']);
    expect(await select(`{"query": "id == $v", "vars": {"v": ${EVEN}}}`)).toEqual(['even']);
    expect(await select(`{"query": "id == ?", "vars": [${-ODD}]}`)).toEqual(['minus odd']);
    expect(await select(`{"query": "id == $v", "vars": {"v": {"type": "integer", "value": ${ODD}}}}`)).toEqual(['odd']);
    expect(await select(`{"query": "id > $a and id <= $b", "vars": {"a": ${EVEN}, "b": ${ODD}}}`)).toEqual(['odd']);
    // a float stays a float, and small integers stay what they were
    expect(await select(`{"query": "id >= $v", "vars": {"v": 9007199254740992.0}}`)).toEqual(['even', 'odd']);
    expect(await select(`{"query": "id > $v and s != $t", "vars": {"v": 0, "t": "12345678901234567890"}}`)).toEqual(['even', 'odd']);
  });

  it('replace exactly the row they name in a transaction', async () => {
    const tx = (await s.json('POST', v2('begin'))).body.tx_id as string;
    const res = await s.req('POST', v2('sdk/replace', tx), { headers: json, body: `{"query": "id == ?", "vars": [${ODD}]}` });
    expect(res.status, await res.clone().text()).toBe(200);
    expect([...tableFromIPC(new Uint8Array(await res.arrayBuffer()))].map((r) => r.id)).toEqual([ODD]);
    expect((await s.req('POST', v2('commit', tx))).status).toBe(200);
    expect(await select('{"query": "id > 0"}')).toEqual(['even']);
  });
});
