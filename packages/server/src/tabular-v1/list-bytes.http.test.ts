// A JSON listing is bounded by the size of its rows too: large rows come in several pages, each once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
const ref = '/data/catalog.example.io/dataset/wide';

beforeAll(async () => {
  s = await startTestServer({ listJsonBytes: 1000 });
  await s.json('POST', '/catalog', { json: manifests.dataset('wide', 'tabular') });
  await s.json('POST', `${ref}/schema`, { json: { table_schema: { id: { type: 'int32' }, text: { type: 'string' } } } });
  const data = Array.from({ length: 10 }, (_, id) => ({ id, text: String(id).repeat(300) }));
  expect((await s.json('POST', ref, { json: { data } })).status).toBe(200);
});
afterAll(() => s.close());

describe('JSON list pages bounded by bytes', () => {
  it('stops a page once its rows reach listJsonBytes and continues with next: every row once', async () => {
    const pages: number[][] = [];
    let next: string | null = null;
    do {
      const page: { status: number; body: { data: { id: number }[]; next: string | null } } = await s.json('POST', `${ref}/list${next ? `?cursor=${next}` : ''}`, { json: {} });
      expect(page.status).toBe(200);
      pages.push(page.body.data.map((r) => r.id));
      next = page.body.next;
    } while (next);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.every((p) => p.length >= 1 && p.length <= 4)).toBe(true);
    expect(pages.flat().sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
  });

  it('NDJSON is streamed and not cut by size', async () => {
    const res = await s.req('POST', `${ref}/list`, { json: {}, headers: { accept: 'application/x-ndjson' } });
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toEqual({ '@@end': true });
  });
});
