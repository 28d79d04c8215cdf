// Inserting untrusted Arrow IPC bodies over HTTP: broken buffers and trailing bytes are a 400 and change nothing.
import { Field, Int32, Null, RecordBatch, Schema, Struct, Table, Utf8, makeData, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let table = '';
const arrow = { 'content-type': 'application/vnd.apache.arrow.stream' };
const schema = new Schema([new Field('id', new Int32(), false), new Field('s', new Utf8(), true)]);
const ipc = (b: RecordBatch): Buffer => Buffer.from(tableToIPC(new Table([b]), 'stream'));
const rows = (ids: number[]) => new RecordBatch({ id: vectorFromArray(ids, new Int32()).data[0]!, s: vectorFromArray(ids.map((i) => `s${i}`), new Utf8()).data[0]! });

beforeAll(async () => {
  s = await startTestServer();
  table = (await s.json('POST', '/catalog', { json: manifests.dataset('ins-v2', 'tabular') })).body.metadata.uuid;
  expect((await s.req('POST', `/api/table/v2/sdk/create?table_id=${table}`, { headers: arrow, body: Buffer.from(tableToIPC(new Table(schema), 'stream')) })).status).toBe(200);
  expect((await s.req('POST', `/api/table/v2/sdk/insert?table_id=${table}`, { headers: arrow, body: ipc(rows([1, 2, 3])) })).status).toBe(200);
});
afterAll(() => s.close());

const numRows = async (): Promise<number> => (await s.json('POST', `/api/table/v2/stats?table_id=${table}`)).body.num_rows;
const insert = (body: Buffer) => s.req('POST', `/api/table/v2/sdk/insert?table_id=${table}`, { headers: arrow, body });

describe('sdk/insert of a broken body', () => {
  it('answers 400 naming the column whose string offsets point past its data, and stores nothing', async () => {
    const id = vectorFromArray([7, 8], new Int32()).data[0]!;
    const bad = makeData({ type: new Utf8(), length: 2, nullCount: 0, valueOffsets: Int32Array.from([0, 1, 5000]), data: new Uint8Array([97, 98, 99]) });
    const res = await insert(ipc(new RecordBatch({ id, s: bad })));
    expect(res.status).toBe(400);
    expect(res.headers.get('x-halocline-error')).toBe('InvalidData');
    expect(await res.text()).toMatch(/column "s": value 1 ends at offset 5000/);
    expect(await numRows()).toBe(3);
  });

  it('answers 400 when bytes follow the end-of-stream marker (e.g. a cut continuation marker), and stores nothing', async () => {
    const body = ipc(rows([4, 5]));
    const schemaLength = 8 + body.readInt32LE(4);
    body.writeUInt32LE(0, schemaLength); // the batch's continuation marker becomes a legacy end-of-stream
    const res = await insert(body);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/after the Arrow IPC end-of-stream marker/);
    expect(await numRows()).toBe(3);
  });

  it('answers 400 on damaged flatbuffer metadata before apache-arrow decodes it (it looped or ran out of memory), and stays up', async () => {
    const named = new Schema([new Field('id', new Int32(), false), new Field('s_named_field', new Utf8(), true)]);
    const body = Buffer.from(tableToIPC(new Table([new RecordBatch(named, rows([4, 5]).data)]), 'stream'));
    const name = body.indexOf('s_named_field');
    body[name - 1] = 0xff; // the high byte of the name's length
    const res = await insert(body);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/not a readable Arrow IPC stream: unreadable Arrow IPC stream: a string of \d+ bytes at byte \d+ runs past the metadata/);
    expect(await numRows()).toBe(3);
  });

  it('answers 400 on a message claiming a body over the limit before taking its memory', async () => {
    const body = ipc(rows([4, 5]));
    // the record batch message's bodyLength (Message slot 3) made 2^40 bytes
    const start = 8 + body.readInt32LE(4) + 8;
    const root = start + body.readUInt32LE(start);
    const vtable = root - body.readInt32LE(root);
    body.writeBigInt64LE(2n ** 40n, root + body.readUInt16LE(vtable + 10));
    const res = await insert(body);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/the Arrow body is larger than the limit of \d+ bytes/);
    expect(await numRows()).toBe(3);
  });

  it('takes a column of type Null (pyarrow\'s type of an all-None column), and answers 400 on one declaring millions of rows it does not carry', async () => {
    const withNulls = (n: number) => {
      const fields = [new Field('id', new Int32(), false), new Field('s', new Null(), true)];
      const id = makeData({ type: new Int32(), length: n, nullCount: 0, data: new Int32Array(n) });
      return new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: n, nullCount: 0, children: [id, makeData({ type: new Null(), length: n, nullCount: n })] }));
    };
    expect((await insert(ipc(withNulls(2)))).status).toBe(200);
    expect(await numRows()).toBe(5);
    // the id column carries its rows; a Null column of 100M rows alone carries none
    const fields = [new Field('s', new Null(), true)];
    const huge = new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: 100_000_000, nullCount: 0, children: [makeData({ type: new Null(), length: 100_000_000, nullCount: 100_000_000 })] }));
    const res = await insert(ipc(huge));
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/the batch declares 100000000 rows but carries 0 bytes of column buffers/);
    expect(await numRows()).toBe(5);
  });

  it('still takes a well-formed body', async () => {
    expect((await insert(ipc(rows([10, 11])))).status).toBe(200);
    expect(await numRows()).toBe(7);
  });
});
