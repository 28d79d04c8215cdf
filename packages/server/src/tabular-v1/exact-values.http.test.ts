// Tabular v1 keeps values exact: what list answers, insert, update and filters take back unchanged
// (timestamps of every unit, int64 beyond 2^53, bytes, geometry, nulls, NaN and infinities).
import { Field, Int64, Schema, TimestampNanosecond, Utf8 } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let n = 0;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

// a fresh tabular dataset with this v1 schema; returns its reference and uuid
async function table(tableSchema: Record<string, unknown>): Promise<{ ref: string; uuid: string }> {
  const name = `exact${n++}`;
  const created = await s.json('POST', '/catalog', { json: manifests.dataset(name, 'tabular'), key: s.aliceKey });
  expect(created.status).toBe(201);
  const ref = `/data/catalog.example.io/dataset/${name}`;
  if (Object.keys(tableSchema).length > 0) expect((await s.json('POST', `${ref}/schema`, { json: { table_schema: tableSchema }, key: s.aliceKey })).status).toBe(200);
  return { ref, uuid: created.body.metadata.uuid as string };
}

const list = async (ref: string, filter: unknown = {}) => {
  const r = await s.json('POST', `${ref}/list`, { json: filter, key: s.aliceKey });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as Record<string, unknown>[];
};
const ndjsonRows = async (ref: string, filter: unknown = {}) => {
  const res = await s.req('POST', `${ref}/list`, { json: filter, key: s.aliceKey, headers: { accept: 'application/x-ndjson' } });
  const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines.pop()).toEqual({ '@@end': true });
  return lines;
};
const insert = (ref: string, data: unknown[]) => s.json('POST', ref, { json: { data }, key: s.aliceKey });
const patch = (ref: string, update_filters: unknown, data: unknown) => s.json('PATCH', ref, { json: { update_filters, data }, key: s.aliceKey });

describe('PATCH carries the columns it does not set over exactly', () => {
  it('int64 beyond 2^53, timestamp[us], binary, geometry and nulls stay as stored', async () => {
    const { ref } = await table({ id: { type: 'int64' }, s: { type: 'string' }, tu: { type: 'timestamp[us]' }, ts: { type: 'timestamp' }, b: { type: 'binary' }, g: { type: 'geometry' }, x: { type: 'float64' } });
    const row = { id: '9007199254740993', s: 'odd', tu: '2024-05-01T12:00:00.123456Z', ts: '2024-05-01T12:00:00.123Z', b: 'AAEC/w==', g: 'POINT (10 60)', x: null };
    const other = { id: 1, s: 'even', tu: '1969-12-31T23:59:59.999999Z', ts: '2024-05-01T12:00:00.000Z', b: null, g: null, x: 2.5 };
    expect((await insert(ref, [row, other])).status).toBe(200);
    const up = await patch(ref, { '#EQUALS': ['$s', 'odd'] }, { s: 'odd2' });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.num_rows).toBe(1);
    const after = await list(ref);
    expect(after).toHaveLength(2);
    expect(after).toContainEqual({ ...row, s: 'odd2' });
    expect(after).toContainEqual(other);
  });

  it('timestamp[ns] (a column v1 cannot declare, made by the engine) keeps its nanoseconds', async () => {
    const { ref, uuid } = await table({});
    await s.server.store.table(uuid).create(new Schema([new Field('id', new Int64(), false), new Field('s', new Utf8(), true), new Field('tn', new TimestampNanosecond('UTC'), true)]));
    const row = { id: 1, s: 'a', tn: '2024-05-01T12:00:00.123456789Z' };
    expect((await insert(ref, [row])).status).toBe(200);
    expect(await list(ref)).toEqual([row]);
    expect((await patch(ref, { '#EQUALS': ['$tn', '2024-05-01T12:00:00.123456789Z'] }, { s: 'b' })).body.num_rows).toBe(1);
    expect(await list(ref)).toEqual([{ ...row, s: 'b' }]);
  });

  it('sets the patched columns from their JSON forms, checked before any row is touched', async () => {
    const { ref } = await table({ id: { type: 'int64', nullable: false }, tu: { type: 'timestamp[us]' }, b: { type: 'binary' }, g: { type: 'geometry' } });
    expect((await insert(ref, Array.from({ length: 5 }, (_, i) => ({ id: i, tu: null, b: null, g: null })))).status).toBe(200);
    const set = { tu: '2024-05-01T12:00:00.000001Z', b: 'AA==', g: 'POINT (1 2)' };
    expect((await patch(ref, { '#GREATER_THAN_OR_EQUALS': ['$id', 3] }, set)).body.num_rows).toBe(2);
    const after = (await list(ref)).sort((a, b) => Number(a.id) - Number(b.id));
    expect(after.slice(3)).toEqual([3, 4].map((id) => ({ id, ...set })));
    expect(after.slice(0, 3).every((r) => r.tu === null)).toBe(true);
    const bad = await patch(ref, { '#EQUALS': ['$id', 0] }, { id: null });
    expect(bad.status).toBe(400);
    expect(bad.body.description).toMatch(/^data, column "id": null in a non-nullable column/);
    const unknown = await patch(ref, { '#EQUALS': ['$id', 0] }, { colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.description).toMatch(/^data, column "colour": no such column/);
    expect(await list(ref)).toHaveLength(5);
  });
});

describe('list answers timestamps in the precision of their unit', () => {
  it('us with 6 digits (JSON and NDJSON), ms as before; the listed rows insert and filter back exactly', async () => {
    const { ref } = await table({ id: { type: 'int32' }, tu: { type: 'timestamp[us]' }, ts: { type: 'timestamp' } });
    const rows = [
      { id: 1, tu: '2024-05-01T12:00:00.123456Z', ts: '2024-05-01T12:00:00.123Z' },
      { id: 2, tu: '2024-05-01T12:00:00.123457Z', ts: '2024-05-01T12:00:00.000Z' },
    ];
    expect((await insert(ref, rows)).status).toBe(200);
    expect(await list(ref)).toEqual(rows);
    expect(await ndjsonRows(ref)).toEqual(rows);
    // the listed strings filter back exactly, through the engine and row by row (with a geometry-free OQS shape it cannot translate)
    expect(await list(ref, { '#EQUALS': ['$tu', '2024-05-01T12:00:00.123456Z'] })).toEqual([rows[0]]);
    expect(await list(ref, { '#GREATER_THAN': ['$tu', '2024-05-01T12:00:00.123456Z'] })).toEqual([rows[1]]);
    expect(await list(ref, { id: 1, tu: '2024-05-01T12:00:00.123456Z' })).toEqual([rows[0]]);
    // and insert back unchanged
    const { ref: copy } = await table({ id: { type: 'int32' }, tu: { type: 'timestamp[us]' }, ts: { type: 'timestamp' } });
    expect((await insert(copy, await list(ref))).status).toBe(200);
    expect(await list(copy)).toEqual(rows);
  });
});

describe('non-finite floats round-trip', () => {
  it('"NaN", "Infinity" and "-Infinity" as list writes them are read back by insert and update; other strings stay errors', async () => {
    const { ref } = await table({ id: { type: 'int32' }, x: { type: 'float64' }, y: { type: 'float32' } });
    const rows = [
      { id: 1, x: 'NaN', y: 'Infinity' },
      { id: 2, x: '-Infinity', y: 'NaN' },
      { id: 3, x: 1.5, y: null },
    ];
    expect((await insert(ref, rows)).status).toBe(200);
    const listed = await list(ref);
    expect(listed).toEqual(rows);
    const { ref: copy } = await table({ id: { type: 'int32' }, x: { type: 'float64' }, y: { type: 'float32' } });
    expect((await insert(copy, listed)).status).toBe(200);
    expect(await list(copy)).toEqual(rows);
    expect((await patch(ref, { '#EQUALS': ['$id', 3] }, { x: 'NaN', y: '-Infinity' })).status).toBe(200);
    expect(await list(ref, { '#EQUALS': ['$id', 3] })).toEqual([{ id: 3, x: 'NaN', y: '-Infinity' }]);
    for (const bad of ['nan', 'inf', ' NaN', '1.5']) {
      const r = await insert(ref, [{ id: 4, x: bad }]);
      expect(r.status).toBe(400);
      expect(r.body.description).toMatch(/row 0, column "x": expected float64/);
    }
  });
});

describe('int64 beyond 2^53', () => {
  it('JSON numbers and decimal strings are both stored exactly (insert and update)', async () => {
    const { ref } = await table({ id: { type: 'int64' }, u: { type: 'uint64' }, s: { type: 'string' } });
    const raw = await s.json('POST', ref, { body: '{"data": [{"id": 1, "s": "a"}, {"id": 9007199254740995, "u": 1152921504606846977, "s": "b"}]}', headers: { 'content-type': 'application/json' }, key: s.aliceKey });
    expect(raw.status, JSON.stringify(raw.body)).toBe(200);
    expect(await list(ref)).toEqual([
      { id: 1, u: null, s: 'a' },
      { id: '9007199254740995', u: '1152921504606846977', s: 'b' },
    ]);
    const rows = [
      { id: '9007199254740997', u: '18446744073709551615', s: 'c' },
      { id: -9007199254740991, u: 0, s: 'd' },
    ];
    expect((await insert(ref, rows)).status).toBe(200);
    expect((await list(ref)).slice(2)).toEqual(rows);
    const up = await s.json('PATCH', ref, { body: '{"update_filters": {"#EQUALS": ["$s", "d"]}, "data": {"id": 9007199254740993}}', headers: { 'content-type': 'application/json' }, key: s.aliceKey });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.num_rows).toBe(1);
    expect((await list(ref)).find((r) => r.s === 'd')).toEqual({ id: '9007199254740993', u: 0, s: 'd' });
    // a fractional number stays the engine's type error
    expect((await insert(ref, [{ id: 1.5 }])).body.description).toMatch(/row 0, column "id"/);
  });
});
