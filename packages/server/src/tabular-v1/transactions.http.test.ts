// Tabular v1 writes by OQS filter, each one transaction: delete, update (PATCH: set columns, or replace the matches by rows).
// Stages: stages.http.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let n = 0;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

// a fresh tabular dataset with rows id 0..9, station S0/S1
async function table(): Promise<string> {
  const name = `tx${n++}`;
  expect((await s.json('POST', '/catalog', { json: manifests.dataset(name, 'tabular'), key: s.aliceKey })).status).toBe(201);
  const ref = `/data/catalog.example.io/dataset/${name}`;
  const schema = { table_schema: { id: { type: 'int64', nullable: false }, station: { type: 'string' }, temp: { type: 'float64' } } };
  expect((await s.json('POST', `${ref}/schema`, { json: schema, key: s.aliceKey })).status).toBeLessThan(300);
  const data = Array.from({ length: 10 }, (_, i) => ({ id: i, station: `S${i % 2}`, temp: i / 2 }));
  expect((await s.json('POST', ref, { json: { data }, key: s.aliceKey })).status).toBeLessThan(300);
  return ref;
}

async function rows(ref: string): Promise<Array<{ id: number; station: string; temp: number }>> {
  const { body } = await s.json('POST', `${ref}/list`, { json: {}, key: s.aliceKey });
  return (body.data as Array<{ id: number; station: string; temp: number }>).sort((a, b) => Number(a.id) - Number(b.id));
}

describe('delete and update by filter', () => {
  it('deletes the rows an OQS filter matches and says how many', async () => {
    const ref = await table();
    const del = await s.json('POST', `${ref}/delete`, { json: { '#EQUALS': ['$station', 'S0'] }, key: s.aliceKey });
    expect(del.status).toBe(200);
    expect(del.body.num_rows).toBe(5);
    expect((await rows(ref)).map((r) => Number(r.id))).toEqual([1, 3, 5, 7, 9]);
  });

  it('updates matching rows in place of the old versions', async () => {
    const ref = await table();
    const up = await s.json('PATCH', ref, { json: { update_filters: { '#GREATER_THAN_OR_EQUALS': ['$id', 8] }, data: { temp: -1 } }, key: s.aliceKey });
    expect(up.status).toBe(200);
    expect(up.body.num_rows).toBe(2);
    const after = await rows(ref);
    expect(after).toHaveLength(10);
    expect(after.filter((r) => r.temp === -1).map((r) => Number(r.id))).toEqual([8, 9]);
  });

  it('updates every row of a table larger than a batch, each once (matches re-inserted batch by batch)', async () => {
    const ref = await table();
    const data = Array.from({ length: 30_000 }, (_, i) => ({ id: 100 + i, station: 'S2', temp: 0 }));
    expect((await s.json('POST', ref, { json: { data }, key: s.aliceKey })).status).toBe(200);
    const up = await s.json('PATCH', ref, { json: { update_filters: {}, data: { temp: 7 } }, key: s.aliceKey });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.num_rows).toBe(30_010);
    const after = await rows(ref);
    expect(after).toHaveLength(30_010);
    expect(new Set(after.map((r) => Number(r.id))).size).toBe(30_010);
    expect(after.every((r) => r.temp === 7)).toBe(true);
  });

  it('a bad update leaves the table as it was; another account may not write', async () => {
    const ref = await table();
    const bad = await s.json('PATCH', ref, { json: { update_filters: { '#EQUALS': ['$id', 1] }, data: { temp: 'hot' } }, key: s.aliceKey });
    expect(bad.status).toBe(400);
    const unknown = await s.json('POST', `${ref}/delete`, { json: { '#EQUALS': ['$nope', 1] }, key: s.aliceKey });
    expect(unknown.status).toBe(400);
    const other = await s.json('POST', `${ref}/delete`, { json: { '#EQUALS': ['$id', 1] }, key: s.bobKey });
    expect(other.status).toBe(403);
    expect(await rows(ref)).toHaveLength(10);
  });
});

describe('update by a list of rows (odp-sdk update(dataset, data: List[Dict], filter_query))', () => {
  it('replaces the rows the filter matches by the rows given, in one transaction', async () => {
    const ref = await table();
    const data = [{ id: 100, station: 'S0', temp: 1 }, { id: 101, station: 'S0', temp: 2 }];
    const up = await s.json('PATCH', ref, { json: { update_filters: { '#EQUALS': ['$station', 'S0'] }, data }, key: s.aliceKey });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toEqual({ num_rows: 2, num_matched: 5 });
    const after = await rows(ref);
    expect(after.map((r) => Number(r.id))).toEqual([1, 3, 5, 7, 9, 100, 101]);
    expect(after.filter((r) => r.station === 'S0')).toEqual(data);
  });

  it('a row replaced by its new version (the client example: a filter on a key, the new row); the new rows are not matched themselves', async () => {
    const ref = await table();
    const up = await s.json('PATCH', ref, { json: { update_filters: { '#EQUALS': ['$id', 3] }, data: [{ id: 3, station: 'S3', temp: 99 }] }, key: s.aliceKey });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ num_rows: 1, num_matched: 1 });
    const after = await rows(ref);
    expect(after).toHaveLength(10);
    expect(after.find((r) => Number(r.id) === 3)).toEqual({ id: 3, station: 'S3', temp: 99 });
    // columns left out of a row are null, as in an insert; an empty list deletes the matches
    expect((await s.json('PATCH', ref, { json: { update_filters: { '#EQUALS': ['$id', 4] }, data: [{ id: 4 }] }, key: s.aliceKey })).status).toBe(200);
    expect((await rows(ref)).find((r) => Number(r.id) === 4)).toEqual({ id: 4, station: null, temp: null });
    expect((await s.json('PATCH', ref, { json: { update_filters: { '#EQUALS': ['$id', 5] }, data: [] }, key: s.aliceKey })).body).toEqual({ num_rows: 0, num_matched: 1 });
    expect((await rows(ref)).map((r) => Number(r.id))).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9]);
  });

  it('a bad row is a 400 naming the row and column, and changes nothing', async () => {
    const ref = await table();
    const before = await rows(ref);
    const filter = { '#GREATER_THAN_OR_EQUALS': ['$id', 0] };
    const cases: Array<[unknown[], RegExp]> = [
      [[{ id: 50, station: 'x', temp: 1 }, { id: 51, station: 'y', temp: 'hot' }], /^row 1, column "temp"/],
      [[{ id: 50, nope: 1 }], /^row 0, column "nope": no such column/],
      [[{ id: 50 }, { station: 'no id' }], /^row 1, column "id"/],
      [[[50, 'S0', 1]], /^row 0: expected an object of column to value, got a list/],
    ];
    for (const [data, message] of cases) {
      const bad = await s.json('PATCH', ref, { json: { update_filters: filter, data }, key: s.aliceKey });
      expect(bad.status, JSON.stringify(data)).toBe(400);
      expect(bad.body.description).toMatch(message);
    }
    // a filter the engine refuses: nothing deleted either
    const unknown = await s.json('PATCH', ref, { json: { update_filters: { '#EQUALS': ['$nope', 1] }, data: [{ id: 1 }] }, key: s.aliceKey });
    expect(unknown.status).toBe(400);
    expect(await rows(ref)).toEqual(before);
  });

  it('takes int64 values beyond 2^53 exactly, as insert does', async () => {
    const ref = await table();
    const body = '{"update_filters": {"#EQUALS": ["$id", 2]}, "data": [{"id": 9007199254740993, "station": "big"}, {"id": "9007199254740995"}]}';
    const up = await s.req('PATCH', ref, { body, headers: { 'content-type': 'application/json' }, key: s.aliceKey });
    expect(up.status, await up.clone().text()).toBe(200);
    const list = await s.req('POST', `${ref}/list`, { json: { '#EQUALS': ['$station', 'big'] }, key: s.aliceKey });
    expect(await list.text()).toContain('"id":"9007199254740993"');
    expect((await rows(ref)).map((r) => String(r.id))).toContain('9007199254740995');
  });

  it('refuses a stage_id (an update does not run in a stage) and data that is neither a list nor an object', async () => {
    const ref = await table();
    const staged = await s.json('PATCH', ref, { json: { update_filters: {}, data: [], stage_id: '00000000-0000-4000-8000-000000000000' }, key: s.aliceKey });
    expect(staged.status).toBe(400);
    expect(staged.body.description).toMatch(/^stage_id: PATCH does not run in a stage/);
    const text = await s.json('PATCH', ref, { json: { update_filters: {}, data: 'x' }, key: s.aliceKey });
    expect(text.status).toBe(400);
    expect(text.body.description).toMatch(/^data: expected a list of rows/);
    expect(await rows(ref)).toHaveLength(10);
  });
});
