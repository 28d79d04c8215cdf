// Boolean query parameters as the clients write them: Python's requests sends True/False, R's httr2
// TRUE/FALSE. Every route with one (overwrite, delete_data, force_delete) reads them through boolParam.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let raw: string;
let tab: string;

beforeAll(async () => {
  s = await startTestServer();
  raw = (await s.json('POST', '/catalog', { json: manifests.dataset('bool-raw'), key: s.aliceKey })).body.metadata.uuid;
  tab = (await s.json('POST', '/catalog', { json: manifests.dataset('bool-tab', 'tabular'), key: s.aliceKey })).body.metadata.uuid;
});
afterAll(() => s.close());

const octets = (body: string) => ({ key: s.aliceKey, body, headers: { 'content-type': 'application/octet-stream' } });

describe('boolean query parameters in the spellings the clients send', () => {
  it('PATCH /data/{ref}/{name}?overwrite=False uploads (every raw upload from Python sends it); True overwrites', async () => {
    expect((await s.json('POST', `/data/${raw}`, { key: s.aliceKey, json: { name: 'cast.csv' } })).status).toBe(200);
    const first = await s.json('PATCH', `/data/${raw}/cast.csv?overwrite=False`, octets('a'));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.size_bytes).toBe(1);
    // read as false: content exists, so a second upload is refused
    expect((await s.json('PATCH', `/data/${raw}/cast.csv?overwrite=False`, octets('bb'))).status).toBe(409);
    const over = await s.json('PATCH', `/data/${raw}/cast.csv?overwrite=True`, octets('ccc'));
    expect(over.status).toBe(200);
    expect(over.body.size_bytes).toBe(3);
    expect((await s.json('PATCH', `/data/${raw}/cast.csv?overwrite=1`, octets('dddd'))).body.size_bytes).toBe(4);
    const bad = await s.json('PATCH', `/data/${raw}/cast.csv?overwrite=yes`, octets('e'));
    expect(bad.status).toBe(400);
    expect(bad.body.description).toMatch(/^query parameter overwrite must be true or false .*, got "yes"$/);
  });

  it('DELETE /data/{ref}/schema?delete_data=False keeps a table with rows (409); delete_data=TRUE drops it', async () => {
    expect((await s.json('POST', `/data/${tab}/schema`, { key: s.aliceKey, json: { table_schema: { a: { type: 'int32' } } } })).status).toBe(200);
    expect((await s.json('POST', `/data/${tab}`, { key: s.aliceKey, json: { data: [{ a: 1 }] } })).status).toBe(200);
    const kept = await s.json('DELETE', `/data/${tab}/schema?delete_data=False`, { key: s.aliceKey });
    expect(kept.status, JSON.stringify(kept.body)).toBe(409);
    expect(kept.body.description).toContain('delete_data=true');
    expect((await s.json('DELETE', `/data/${tab}/schema?delete_data=maybe`, { key: s.aliceKey })).status).toBe(400);
    expect((await s.req('DELETE', `/data/${tab}/schema?delete_data=TRUE`, { key: s.aliceKey })).status).toBe(204);
    expect((await s.json('GET', `/data/${tab}/schema`, { key: s.aliceKey })).status).toBe(404);
  });

  it('DELETE /data/{ref}/stage/{id}?force_delete=False rolls the stage back', async () => {
    const tab = (await s.json('POST', '/catalog', { json: manifests.dataset('bool-stage', 'tabular'), key: s.aliceKey })).body.metadata.uuid;
    expect((await s.json('POST', `/data/${tab}/schema`, { key: s.aliceKey, json: { table_schema: { a: { type: 'int32' } } } })).status).toBe(200);
    const stage = await s.json('POST', `/data/${tab}/stage`, { key: s.aliceKey, json: { action: 'create' } });
    expect(stage.status).toBe(200);
    const id = stage.body.stage_id as string;
    expect((await s.json('DELETE', `/data/${tab}/stage/${id}?force_delete=nope`, { key: s.aliceKey })).status).toBe(400);
    const gone = await s.req('DELETE', `/data/${tab}/stage/${id}?force_delete=False`, { key: s.aliceKey });
    expect(gone.status, await gone.clone().text()).toBe(204);
    expect((await s.json('GET', `/data/${tab}/stage/${id}`, { key: s.aliceKey })).status).toBeGreaterThanOrEqual(400);
  });
});
