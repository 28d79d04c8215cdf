// Tabular v1 stages as odp-sdk uses them: answers its TableStage model parses, UUID ids sent back in any
// form, 400 for a stage that is not open (the client's "not found"), listing, commit, rollback, idle expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

const IDLE_MS = 60_000;
let s: TestServer;
let n = 0;

beforeAll(async () => {
  s = await startTestServer({ txIdleMs: IDLE_MS });
});
afterAll(() => s.close());

// a fresh tabular dataset of alice's with rows id 0..9
async function table(): Promise<string> {
  const name = `st${n++}`;
  expect((await s.json('POST', '/catalog', { json: manifests.dataset(name, 'tabular'), key: s.aliceKey })).status).toBe(201);
  const ref = `/data/catalog.example.io/dataset/${name}`;
  const schema = { table_schema: { id: { type: 'int64', nullable: false }, station: { type: 'string' } } };
  expect((await s.json('POST', `${ref}/schema`, { json: schema, key: s.aliceKey })).status).toBeLessThan(300);
  const data = Array.from({ length: 10 }, (_, i) => ({ id: i, station: `S${i % 2}` }));
  expect((await s.json('POST', ref, { json: { data }, key: s.aliceKey })).status).toBeLessThan(300);
  return ref;
}

async function ids(ref: string): Promise<number[]> {
  const { body } = await s.json('POST', `${ref}/list`, { json: {}, key: s.aliceKey });
  return (body.data as Array<{ id: number }>).map((r) => Number(r.id)).sort((a, b) => a - b);
}

// what `TableStage(**answer)` requires: a UUID stage_id, a known status, parseable created/expiry times, no other fields
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
function expectTableStage(body: Record<string, unknown>, status: string): void {
  expect(body.stage_id).toMatch(UUID);
  expect(body.status).toBe(status);
  expect(['active', 'commit', 'commit-failed', 'delete']).toContain(body.status);
  expect(body.created_time).toMatch(ISO);
  expect(body.expiry_time).toMatch(ISO);
  if (body.updated_time !== undefined) expect(body.updated_time).toMatch(ISO);
  for (const k of Object.keys(body)) expect(['stage_id', 'status', 'created_time', 'expiry_time', 'updated_time', 'error', 'error_info']).toContain(k);
}

const create = async (ref: string, key = s.aliceKey) => s.json('POST', `${ref}/stage`, { json: { action: 'create', stage_id: null }, key });
const time = (v: unknown): number => Date.parse(v as string);

describe('stage answers', () => {
  it('create answers a TableStage: a UUID id, active, created now, expiring txIdleMs later', async () => {
    const ref = await table();
    const before = Date.now();
    const { status, body } = await create(ref);
    expect(status).toBe(200);
    expectTableStage(body, 'active');
    expect(time(body.created_time)).toBeGreaterThanOrEqual(before - 1);
    expect(time(body.created_time)).toBeLessThanOrEqual(Date.now());
    const life = time(body.expiry_time) - time(body.created_time);
    expect(life).toBeGreaterThanOrEqual(IDLE_MS);
    expect(life).toBeLessThan(IDLE_MS + 1000);
  });

  it('GET /stage/{id} answers the same stage, its expiry pushed back by the use', async () => {
    const ref = await table();
    const made = (await create(ref)).body;
    await new Promise((r) => setTimeout(r, 20));
    const got = await s.json('GET', `${ref}/stage/${made.stage_id}`, { key: s.aliceKey });
    expect(got.status).toBe(200);
    expectTableStage(got.body, 'active');
    expect(got.body.stage_id).toBe(made.stage_id);
    expect(got.body.created_time).toBe(made.created_time);
    expect(time(got.body.expiry_time)).toBeGreaterThan(time(made.expiry_time));
  });

  it('commit answers the stage with status commit, its expiry and update the commit time', async () => {
    const ref = await table();
    const made = (await create(ref)).body;
    const { status, body } = await s.json('POST', `${ref}/stage`, { json: { action: 'commit', stage_id: made.stage_id }, key: s.aliceKey });
    expect(status).toBe(200);
    expectTableStage(body, 'commit');
    expect(body.stage_id).toBe(made.stage_id);
    expect(body.created_time).toBe(made.created_time);
    expect(body.updated_time).toBe(body.expiry_time);
    expect(time(body.updated_time)).toBeGreaterThanOrEqual(time(made.created_time));
  });

  it('GET /stage lists the open stages this account holds on the dataset, as TableStages', async () => {
    const ref = await table();
    expect((await s.json('GET', `${ref}/stage`, { key: s.aliceKey })).body).toEqual([]);
    const a = (await create(ref)).body.stage_id as string;
    const b = (await create(ref)).body.stage_id as string;
    expect((await create(ref, s.adminKey)).status).toBe(200); // another account's: not listed
    expect((await create(await table())).status).toBe(200); // another dataset's: not listed
    await s.json('POST', `${ref}/stage`, { json: { action: 'commit', stage_id: a }, key: s.aliceKey });
    const list = await s.json('GET', `${ref}/stage`, { key: s.aliceKey });
    expect(list.status).toBe(200);
    expect(list.body.map((x: { stage_id: string }) => x.stage_id)).toEqual([b]);
    expectTableStage(list.body[0], 'active');
  });
});

describe('stage ids', () => {
  it('are accepted in any case, with or without hyphens, and answered in canonical form', async () => {
    const ref = await table();
    const id = (await create(ref)).body.stage_id as string;
    const upper = id.toUpperCase();
    const bare = id.replace(/-/g, '');
    expect((await s.json('POST', ref, { json: { data: [{ id: 100, station: 'S9' }], stage_id: upper }, key: s.aliceKey })).status).toBe(200);
    expect((await s.json('POST', ref, { json: { data: [{ id: 101, station: 'S9' }], stage_id: bare.toUpperCase() }, key: s.aliceKey })).status).toBe(200);
    const got = await s.json('GET', `${ref}/stage/${bare}`, { key: s.aliceKey });
    expect(got.status).toBe(200);
    expect(got.body.stage_id).toBe(id);
    expect(await ids(ref)).toHaveLength(10);
    const commit = await s.json('POST', `${ref}/stage`, { json: { action: 'commit', stage_id: upper }, key: s.aliceKey });
    expect(commit.status).toBe(200);
    expect(commit.body.stage_id).toBe(id);
    expect(await ids(ref)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 101]);
  });

  it('the Python client flow: create, write with str(UUID), commit, then the stage reads as not found (400)', async () => {
    const ref = await table();
    const stage = (await create(ref)).body;
    const sent = String(stage.stage_id); // str(UUID(...)): lower case, hyphenated
    expect((await s.json('POST', ref, { json: { stage_id: sent, data: [{ id: 200, station: 'S9' }] }, key: s.aliceKey })).status).toBe(200);
    expect((await s.json('POST', `${ref}/stage`, { json: { action: 'commit', stage_id: sent }, key: s.aliceKey })).status).toBe(200);
    expect(await ids(ref)).toContain(200);
    const gone = await s.json('GET', `${ref}/stage/${sent}`, { key: s.aliceKey });
    expect(gone.status).toBe(400);
    expect(gone.body.code).toBe('NoSuchStage');
    // (the client spells the flag False: http/bool-params.http.test.ts covers reading that)
    const again = await s.json('DELETE', `${ref}/stage/${sent}?force_delete=false`, { key: s.aliceKey });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('NoSuchStage');
  });
});

describe('stages', () => {
  it('rows inserted with a stage_id appear only when the stage commits', async () => {
    const ref = await table();
    const id = (await create(ref)).body.stage_id as string;
    expect((await s.json('POST', ref, { json: { data: [{ id: 100, station: 'S9' }], stage_id: id }, key: s.aliceKey })).status).toBeLessThan(300);
    expect(await ids(ref)).toHaveLength(10);
    expect((await s.json('POST', `${ref}/stage`, { json: { action: 'commit', stage_id: id }, key: s.aliceKey })).status).toBe(200);
    expect(await ids(ref)).toContain(100);
  });

  it('a deleted stage applies nothing and is then not found (400); non-stage ids are 404, bad actions 400', async () => {
    const ref = await table();
    const id = (await create(ref)).body.stage_id as string;
    await s.json('POST', ref, { json: { data: [{ id: 200, station: 'S9' }], stage_id: id }, key: s.aliceKey });
    expect((await s.req('DELETE', `${ref}/stage/${id}?force_delete=false`, { key: s.aliceKey })).status).toBe(204);
    expect(await ids(ref)).toHaveLength(10);
    for (const [method, path, json] of [
      ['POST', ref, { data: [{ id: 1, station: 'S9' }], stage_id: id }],
      ['POST', `${ref}/stage`, { action: 'commit', stage_id: id }],
      ['GET', `${ref}/stage/${id}`, undefined],
      ['DELETE', `${ref}/stage/${id}`, undefined],
      ['GET', `${ref}/stage/00000000-0000-4000-8000-000000000000`, undefined],
    ] as const) {
      const r = await s.json(method, path, { json, key: s.aliceKey });
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.body.description).toMatch(/no open stage/);
    }
    const notId = await s.json('GET', `${ref}/stage/not-a-stage`, { key: s.aliceKey });
    expect(notId.status).toBe(404);
    expect((await s.json('POST', `${ref}/stage`, { json: { action: 'explode' }, key: s.aliceKey })).status).toBe(400);
    const noId = await s.json('POST', `${ref}/stage`, { json: { action: 'commit' }, key: s.aliceKey });
    expect(noId.status).toBe(400);
    expect(noId.body.description).toMatch(/^stage_id: commit needs the stage_id/);
  });

  it('a stage belongs to the account that opened it', async () => {
    const ref = await table();
    const id = (await create(ref)).body.stage_id as string;
    expect((await s.json('POST', ref, { json: { data: [{ id: 300, station: 'S9' }], stage_id: id } })).status).toBe(403);
    expect((await s.json('GET', `${ref}/stage/${id}`)).status).toBe(403);
    expect((await s.json('GET', `${ref}/stage/${id}`, { key: s.aliceKey })).body.status).toBe('active');
  });
});

describe('idle stages', () => {
  it('are rolled back after txIdleMs and then say so (400)', async () => {
    const idle = await startTestServer({ txIdleMs: 200 });
    try {
      expect((await idle.json('POST', '/catalog', { json: manifests.dataset('idle', 'tabular'), key: idle.aliceKey })).status).toBe(201);
      const ref = '/data/catalog.example.io/dataset/idle';
      await idle.json('POST', `${ref}/schema`, { json: { table_schema: { id: { type: 'int64' } } }, key: idle.aliceKey });
      const id = (await idle.json('POST', `${ref}/stage`, { json: { action: 'create' }, key: idle.aliceKey })).body.stage_id as string;
      await idle.json('POST', ref, { json: { data: [{ id: 1 }], stage_id: id }, key: idle.aliceKey });
      await new Promise((r) => setTimeout(r, 600));
      const late = await idle.json('POST', `${ref}/stage`, { json: { action: 'commit', stage_id: id }, key: idle.aliceKey });
      expect(late.status).toBe(400);
      expect(late.body.description).toBe(`stage ${id} was rolled back after 200 ms idle`);
      expect((await idle.json('GET', `${ref}/stage`, { key: idle.aliceKey })).body).toEqual([]);
      const { body } = await idle.json('POST', `${ref}/list`, { json: {}, key: idle.aliceKey });
      expect(body.data).toEqual([]);
    } finally {
      await idle.close();
    }
  });
});
