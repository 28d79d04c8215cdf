// Tabular v1 writes through engine transactions: delete by OQS, update by OQS, stages (create, insert, commit, rollback).
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

describe('stages', () => {
  it('rows inserted with a stage_id appear only when the stage commits', async () => {
    const ref = await table();
    const stage = await s.json('POST', `${ref}/stage`, { json: { action: 'create' }, key: s.aliceKey });
    expect(stage.status).toBe(200);
    const id = stage.body.stage_id as string;
    expect((await s.json('GET', `${ref}/stage/${id}`, { key: s.aliceKey })).body.status).toBe('active');
    const ins = await s.json('POST', ref, { json: { data: [{ id: 100, station: 'S9', temp: 1 }], stage_id: id }, key: s.aliceKey });
    expect(ins.status).toBeLessThan(300);
    expect(await rows(ref)).toHaveLength(10);
    expect((await s.json('POST', `${ref}/stage`, { json: { action: 'commit', stage_id: id }, key: s.aliceKey })).status).toBe(200);
    expect((await rows(ref)).map((r) => Number(r.id))).toContain(100);
    expect((await s.json('GET', `${ref}/stage/${id}`, { key: s.aliceKey })).status).toBe(404);
  });

  it('a deleted stage applies nothing; unknown stages are 404, bad actions 400', async () => {
    const ref = await table();
    const id = (await s.json('POST', `${ref}/stage`, { json: { action: 'create' }, key: s.aliceKey })).body.stage_id as string;
    await s.json('POST', ref, { json: { data: [{ id: 200, station: 'S9', temp: 1 }], stage_id: id }, key: s.aliceKey });
    expect((await s.req('DELETE', `${ref}/stage/${id}`, { key: s.aliceKey })).status).toBe(204);
    expect(await rows(ref)).toHaveLength(10);
    expect((await s.json('POST', ref, { json: { data: [{ id: 1, station: 'S9', temp: 1 }], stage_id: id }, key: s.aliceKey })).status).toBe(404);
    expect((await s.json('POST', `${ref}/stage`, { json: { action: 'explode' }, key: s.aliceKey })).status).toBe(400);
    const noId = await s.json('POST', `${ref}/stage`, { json: { action: 'commit' }, key: s.aliceKey });
    expect(noId.status).toBe(400);
    expect(noId.body.description).toMatch(/^stage_id: commit needs the stage_id/);
  });

  it('a stage belongs to the account that opened it', async () => {
    const ref = await table();
    const id = (await s.json('POST', `${ref}/stage`, { json: { action: 'create' }, key: s.aliceKey })).body.stage_id as string;
    const admin = await s.json('POST', ref, { json: { data: [{ id: 300, station: 'S9', temp: 1 }], stage_id: id } });
    expect(admin.status).toBe(403);
    expect((await s.json('GET', `${ref}/stage/${id}`, { key: s.aliceKey })).body.status).toBe('active');
  });
});

describe('idle stages', () => {
  it('are rolled back after txIdleMs and then say so', async () => {
    const idle = await startTestServer({ txIdleMs: 200 });
    try {
      expect((await idle.json('POST', '/catalog', { json: manifests.dataset('idle', 'tabular'), key: idle.aliceKey })).status).toBe(201);
      const ref = '/data/catalog.example.io/dataset/idle';
      await idle.json('POST', `${ref}/schema`, { json: { table_schema: { id: { type: 'int64' } } }, key: idle.aliceKey });
      const id = (await idle.json('POST', `${ref}/stage`, { json: { action: 'create' }, key: idle.aliceKey })).body.stage_id as string;
      await idle.json('POST', ref, { json: { data: [{ id: 1 }], stage_id: id }, key: idle.aliceKey });
      await new Promise((r) => setTimeout(r, 600));
      const late = await idle.json('POST', `${ref}/stage`, { json: { action: 'commit', stage_id: id }, key: idle.aliceKey });
      expect(late.status).toBe(404);
      expect(late.body.description).toContain('rolled back');
      const { body } = await idle.json('POST', `${ref}/list`, { json: {}, key: idle.aliceKey });
      expect(body.data).toEqual([]);
    } finally {
      await idle.close();
    }
  });
});
