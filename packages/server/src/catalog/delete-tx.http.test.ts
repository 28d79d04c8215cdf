// Deleting a dataset ends what it left open: v2 transactions, v1 stages and parked cursors of its table,
// so none of them can commit into (or read from) a later dataset with the same uuid.
import { Field, Int32, RecordBatch, Schema, Table, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const arrow = { 'content-type': 'application/vnd.apache.arrow.stream' };
const schema = new Schema([new Field('id', new Int32(), false)]);
const ipc = (ids: number[]) => Buffer.from(tableToIPC(new Table(schema, [new RecordBatch(schema, new RecordBatch({ id: vectorFromArray(ids, new Int32()).data[0]! }).data)]), 'stream'));
const UUID = '5e1f0000-0000-4000-8000-00000000d00d';

async function tabular(): Promise<void> {
  const m = manifests.dataset('reborn', 'tabular');
  const created = await s.json('POST', '/catalog', { json: { ...m, metadata: { ...m.metadata, uuid: UUID } } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await s.req('POST', `/api/table/v2/sdk/create?table_id=${UUID}`, { headers: arrow, body: ipc([]) })).status).toBe(200);
}
// the continuation cursor of a select answer, from the JSON trailer after the IPC stream
const cursorOf = async (res: Response): Promise<string> => {
  const text = Buffer.from(await res.arrayBuffer()).toString('latin1');
  const trailer = JSON.parse(text.slice(text.lastIndexOf('{"started"'))) as { cursor: string | null };
  expect(trailer.cursor).toEqual(expect.any(String));
  return trailer.cursor!;
};
const count = async () => (await s.json('POST', `/api/table/v2/stats?table_id=${UUID}`)).body.num_rows as number;

describe('deleting a dataset with a transaction open on its table', () => {
  it('rolls the v2 transaction back: its commit is refused and writes nothing into a new dataset with the same uuid', async () => {
    await tabular();
    const tx = (await s.json('POST', `/api/table/v2/begin?table_id=${UUID}`)).body.tx_id as string;
    expect((await s.req('POST', `/api/table/v2/sdk/insert?table_id=${UUID}&tx_id=${tx}`, { headers: arrow, body: ipc([1, 2, 3]) })).status).toBe(200);
    expect((await s.req('DELETE', `/catalog/${UUID}`)).status).toBe(204);
    await tabular();
    const commit = await s.req('POST', `/api/table/v2/commit?table_id=${UUID}&tx_id=${tx}`);
    expect(commit.status).toBe(410);
    expect(await commit.text()).toBe(`transaction ${tx} was rolled back because its dataset was deleted`);
    expect(await count()).toBe(0);
    expect((await s.req('DELETE', `/catalog/${UUID}`)).status).toBe(204);
  });

  it('rolls the v1 stage back the same way', async () => {
    await tabular();
    const stage = await s.json('POST', `/data/${UUID}/stage`, { json: { action: 'create' } });
    expect(stage.status).toBe(200);
    const id = stage.body.stage_id as string;
    expect((await s.json('POST', `/data/${UUID}`, { json: { data: [{ id: 1 }], stage_id: id } })).status).toBeLessThan(300);
    expect((await s.req('DELETE', `/catalog/${UUID}`)).status).toBe(204);
    await tabular();
    const commit = await s.json('POST', `/data/${UUID}/stage`, { json: { action: 'commit', stage_id: id } });
    expect(commit.status).toBe(400); // a stage no longer open: the status odp-sdk reads as "not found"
    expect(commit.body.description).toBe(`stage ${id} was rolled back because its dataset was deleted`);
    expect(await count()).toBe(0);
    expect((await s.req('DELETE', `/catalog/${UUID}`)).status).toBe(204);
  });
});

describe('deleting a dataset with a cursor parked on its table', () => {
  it('releases a parked v2 select cursor: resuming it is a 410 saying why', async () => {
    await tabular();
    for (let k = 0; k < 3; k++) expect((await s.req('POST', `/api/table/v2/sdk/insert?table_id=${UUID}`, { headers: arrow, body: ipc([k, k + 10]) })).status).toBe(200);
    const first = await s.req('POST', `/api/table/v2/sdk/select?table_id=${UUID}`, { json: { query: '', timeout: 0 } });
    expect(first.status).toBe(200);
    const cursor = await cursorOf(first);
    expect((await s.req('DELETE', `/catalog/${UUID}`)).status).toBe(204);
    await tabular();
    const resumed = await s.req('POST', `/api/table/v2/sdk/select?table_id=${UUID}`, { json: { query: '', cursor } });
    expect(resumed.status).toBe(410);
    expect(await resumed.text()).toMatch(/gone: its dataset was deleted/);
    expect((await s.req('DELETE', `/catalog/${UUID}`)).status).toBe(204);
  });
});
