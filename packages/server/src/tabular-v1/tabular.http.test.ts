// Tabular v1 over HTTP: schema, validated inserts, list as JSON and NDJSON with exact continuation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
const ref = '/data/catalog.example.io/dataset/ctd';
const schema = {
  table_schema: {
    time: { type: 'timestamp', nullable: false },
    station: { type: 'string' },
    depth: { type: 'float64', unit: 'm' },
    n: { type: 'int64' },
    ok: { type: 'boolean' },
    day: { type: 'date' },
    where: { type: 'geometry' },
  },
};
const row = (i: number) => ({
  time: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
  station: `S${i % 3}`,
  depth: i * 10,
  n: i,
  ok: i % 2 === 0,
  day: '2024-01-02',
  where: `POINT (${i % 90} ${i % 90})`, // coordinates stay valid latitudes
});

beforeAll(async () => {
  s = await startTestServer({ listBudgetMs: 0 });
  await s.json('POST', '/catalog', { json: manifests.dataset('ctd', 'tabular'), key: s.aliceKey });
  await s.json('POST', '/catalog', { json: manifests.dataset('empty', 'tabular'), key: s.aliceKey });
});
afterAll(() => s.close());

// every row of a JSON listing, following `next`
async function listAll(path: string, filter: unknown, key?: string): Promise<Record<string, number>[]> {
  const out: Record<string, number>[] = [];
  let next: string | null = null;
  do {
    const page: { body: { data: Record<string, number>[]; next: string | null } } = await s.json('POST', `${path}/list${next ? `?cursor=${next}` : ''}`, { json: filter, ...(key ? { key } : {}) });
    out.push(...page.body.data);
    next = page.body.next;
  } while (next);
  return out;
}

const ndjson = async (path: string, body: unknown) => {
  const res = await s.req('POST', path, { json: body, headers: { accept: 'application/x-ndjson' } });
  expect(res.headers.get('content-type')).toContain('application/x-ndjson');
  return (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
};

describe('schema', () => {
  it('creates (409 the second time), reads, and names a bad column type', async () => {
    expect((await s.json('GET', `${ref}/schema`)).status).toBe(404);
    const bad = await s.json('POST', `${ref}/schema`, { key: s.aliceKey, json: { table_schema: { a: { type: 'decimal' } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.description).toMatch(/^table_schema.a.type: unknown type "decimal"; use one of string/);
    expect((await s.json('POST', `${ref}/schema`, { key: s.bobKey, json: schema })).status).toBe(403);
    const created = await s.json('POST', `${ref}/schema`, { key: s.aliceKey, json: schema });
    expect(created.status).toBe(200);
    expect((await s.json('POST', `${ref}/schema`, { key: s.aliceKey, json: schema })).status).toBe(409);
    const read = await s.json('GET', `${ref}/schema`);
    expect(read.body.table_schema).toMatchObject({ time: { type: 'timestamp', nullable: false }, depth: { type: 'float64', unit: 'm' }, where: { type: 'geometry' }, ok: { type: 'bool' } });
  });
});

describe('rows', () => {
  it('rejects a bad row naming row and column, storing nothing of the batch', async () => {
    const rows = [row(0), { ...row(1), depth: 'deep' }];
    const r1 = await s.json('POST', ref, { key: s.aliceKey, json: { data: rows } });
    expect(r1.status).toBe(400);
    expect(r1.body.description).toMatch(/row 1, column "depth"/);
    const r2 = await s.json('POST', ref, { key: s.aliceKey, json: { data: [row(0), { ...row(1), colour: 'red' }] } });
    expect(r2.body.description).toMatch(/^row 1, column "colour": no such column/);
    const r3 = await s.json('POST', ref, { key: s.aliceKey, json: { data: [{ ...row(0), where: 'POINT (1' }] } });
    expect(r3.body.description).toMatch(/^row 0, column "where": expected a WKT/);
    const r4 = await s.json('POST', ref, { key: s.aliceKey, json: { data: [{ ...row(0), time: null }] } });
    expect(r4.status).toBe(400);
    expect((await s.json('POST', `${ref}/list`, { json: {} })).body.data).toEqual([]);
    expect((await s.json('POST', ref, { key: s.bobKey, json: { data: [row(0)] } })).status).toBe(403);
  });

  it('inserts and lists JSON rows as they went in', async () => {
    const ins = await s.json('POST', ref, { key: s.aliceKey, json: { data: Array.from({ length: 50 }, (_, i) => row(i)) } });
    expect(ins.status).toBe(200);
    const all = await s.json('POST', `${ref}/list?limit=1000`, { json: {} });
    // a zero budget still sends one row per request
    expect(all.body.data.length).toBeGreaterThanOrEqual(1);
    expect(all.body.data[0]).toEqual(row(0));
  });

  it('NDJSON continuation with a tiny budget resumes exactly: every row once, in order', async () => {
    const got: unknown[] = [];
    let cursor: string | undefined;
    let requests = 0;
    for (;;) {
      const lines = await ndjson(`${ref}/list${cursor ? `?cursor=${cursor}` : ''}`, {});
      requests++;
      const last = lines.pop()!;
      got.push(...lines);
      if ('@@end' in last) break;
      expect(typeof last['@@next']).toBe('string');
      cursor = last['@@next'] as string;
    }
    expect(requests).toBeGreaterThan(1);
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => row(i)));
  });

  it('JSON {data, next} with limit pages through a filter on one snapshot: rows inserted meanwhile show in the next listing', async () => {
    const filter = { '#EQUALS': ['$station', 'S1'] };
    const got: number[] = [];
    let next: string | null = null;
    let inserted = false;
    do {
      const page: { body: { data: { n: number }[]; next: string | null } } = await s.json('POST', `${ref}/list?limit=4${next ? `&cursor=${next}` : ''}`, { json: filter });
      got.push(...page.body.data.map((r) => r.n));
      next = page.body.next;
      if (!inserted) {
        inserted = true;
        expect((await s.json('POST', ref, { key: s.aliceKey, json: { data: [row(100), row(101)] } })).status).toBe(200);
      }
    } while (next);
    const expected = Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 3 === 1);
    expect(got).toEqual(expected);
    expect((await listAll(ref, filter)).map((r) => r.n)).toEqual([...expected, 100]);
  });

  it('a continuation resumes exactly on its snapshot while rows are deleted, once, by its own account', async () => {
    await s.json('POST', '/catalog', { json: manifests.dataset('moving', 'tabular'), key: s.aliceKey });
    const p = '/data/catalog.example.io/dataset/moving';
    await s.json('POST', `${p}/schema`, { key: s.aliceKey, json: { table_schema: { a: { type: 'int32' } } } });
    await s.json('POST', p, { key: s.aliceKey, json: { data: Array.from({ length: 20 }, (_, a) => ({ a })) } });
    // the test server's budget is 0: one row per request
    const first = await s.json('POST', `${p}/list`, { key: s.aliceKey, json: {} });
    expect(first.body.data.map((r: { a: number }) => r.a)).toEqual([0]);
    // rows the listing has not reached yet are deleted, and some it has sent
    const del = await s.json('POST', `${p}/delete`, { key: s.aliceKey, json: { '#LESS_THAN': ['$a', 10] } });
    expect(del.body.num_rows).toBe(10);
    const cursor = first.body.next as string;
    expect((await s.json('POST', `${p}/list?cursor=${cursor}`, { key: s.bobKey, json: {} })).status).toBe(403);
    const got: number[] = [...first.body.data.map((r: { a: number }) => r.a)];
    let next: string | null = cursor;
    while (next) {
      const page: { body: { data: { a: number }[]; next: string | null } } = await s.json('POST', `${p}/list?cursor=${next}`, { key: s.aliceKey, json: {} });
      got.push(...page.body.data.map((r) => r.a));
      next = page.body.next;
    }
    expect(got).toEqual(Array.from({ length: 20 }, (_, a) => a));
    const reused = await s.json('POST', `${p}/list?cursor=${cursor}`, { key: s.aliceKey, json: {} });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('InvalidCursor');
    expect((await listAll(p, {}, s.aliceKey)).map((r) => r.a)).toEqual(Array.from({ length: 10 }, (_, a) => a + 10));
  });

  it('OQS filters: engine-translated comparisons and row-by-row geometry', async () => {
    const q = async (filter: unknown) => (await ndjson(`${ref}/list`, filter)).filter((l) => 'n' in l).map((l) => l.n);
    // budget 0 sends one row per request; follow the cursor
    const all = async (filter: unknown) => {
      const out: unknown[] = [];
      let cursor = '';
      for (;;) {
        const res = await s.json('POST', `${ref}/list${cursor ? `?cursor=${cursor}` : ''}`, { json: filter });
        out.push(...res.body.data.map((r: { n: number }) => r.n));
        if (!res.body.next) return out;
        cursor = res.body.next;
      }
    };
    expect(await all({ '#AND': [{ '#GREATER_THAN': ['$depth', 100] }, { '#LESS_THAN_OR_EQUALS': ['$n', 13] }] })).toEqual([11, 12, 13]);
    expect(await all({ '#WITHIN': ['$n', [3, 5, 7]] })).toEqual([3, 5, 7]);
    expect(await all({ '#AND': [{ '#GREATER_THAN_OR_EQUALS': ['$time', '2024-01-01T00:00:48Z'] }, { '#LESS_THAN': ['$n', 100] }] })).toEqual([48, 49]);
    expect(await all({ '#ST_WITHIN': ['$where', { type: 'Polygon', coordinates: [[[1.5, 1.5], [4.5, 1.5], [4.5, 4.5], [1.5, 4.5], [1.5, 1.5]]] }] })).toEqual([2, 3, 4]);
    expect(await all({ '#NEGATE': { '#LESS_THAN': ['$n', 49] } })).toEqual([49, 100, 101]);
    expect((await q({ '#EQUALS': ['$n', 7] }))).toEqual([7]);
  });

  it('400 for an unknown column in a filter, a bad cursor, a bad limit', async () => {
    const r = await s.json('POST', `${ref}/list`, { json: { '#EQUALS': ['$colour', 'red'] } });
    expect(r.status).toBe(400);
    expect(r.body.description).toContain('colour');
    expect((await s.json('POST', `${ref}/list?cursor=zzz`, { json: {} })).body.code).toBe('InvalidCursor');
    expect((await s.json('POST', `${ref}/list?limit=-1`, { json: {} })).status).toBe(400);
  });

  it('a continuation with a bad limit is a 400 that keeps the cursor: the listing then resumes where it stopped', async () => {
    const first = await s.json('POST', `${ref}/list?limit=2`, { json: {} });
    expect(first.body.next).toEqual(expect.any(String));
    const bad = await s.json('POST', `${ref}/list?limit=-5&cursor=${first.body.next}`, { json: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.description).toContain('limit');
    const resumed = await s.json('POST', `${ref}/list?limit=2&cursor=${first.body.next}`, { json: {} });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.length).toBeGreaterThan(0); // the test server's budget of 0 ms sends one row a request
    expect(resumed.body.data[0]).not.toEqual(first.body.data[0]);
  });

  it('binary (base64) and int64 beyond 2^53 (decimal strings) round-trip: what list answers, insert and update take', async () => {
    await s.json('POST', '/catalog', { json: manifests.dataset('bytes', 'tabular'), key: s.aliceKey });
    const bytes = '/data/catalog.example.io/dataset/bytes';
    const schema = { table_schema: { id: { type: 'int32' }, blob: { type: 'binary' }, big: { type: 'int64' } } };
    expect((await s.json('POST', `${bytes}/schema`, { key: s.aliceKey, json: schema })).status).toBe(200);
    const rows = [{ id: 1, blob: 'AAEC/w==', big: '9007199254740993' }, { id: 2, blob: null, big: -5 }];
    const ins = await s.json('POST', bytes, { key: s.aliceKey, json: { data: rows } });
    expect(ins.status, JSON.stringify(ins.body)).toBe(200);
    expect(await listAll(bytes, {})).toEqual(rows);
    const bad = await s.json('POST', bytes, { key: s.aliceKey, json: { data: [{ id: 3, blob: 'not base64!' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.description).toMatch(/row 0, column "blob": binary values are base64 text/);
    const up = await s.json('PATCH', bytes, { key: s.aliceKey, json: { update_filters: { '#EQUALS': ['$id', 2] }, data: { blob: 'AA==', big: '-9223372036854775808' } } });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const after = (await s.json('POST', `${bytes}/list`, { json: { '#EQUALS': ['$id', 2] } })).body.data;
    expect(after).toEqual([{ id: 2, blob: 'AA==', big: '-9223372036854775808' }]);
  });

  it('an empty table answers just {"@@end": true}', async () => {
    await s.json('POST', '/data/catalog.example.io/dataset/empty/schema', { key: s.aliceKey, json: { table_schema: { a: { type: 'int32' } } } });
    expect(await ndjson('/data/catalog.example.io/dataset/empty/list', undefined)).toEqual([{ '@@end': true }]);
  });

  it('DELETE schema needs delete_data=true when rows exist', async () => {
    await s.json('POST', '/catalog', { json: manifests.dataset('drop-me', 'tabular'), key: s.aliceKey });
    const p = '/data/catalog.example.io/dataset/drop-me';
    await s.json('POST', `${p}/schema`, { key: s.aliceKey, json: { table_schema: { a: { type: 'int32' } } } });
    await s.json('POST', p, { key: s.aliceKey, json: { data: [{ a: 1 }] } });
    expect((await s.req('DELETE', `${p}/schema`, { key: s.aliceKey })).status).toBe(409);
    expect((await s.req('DELETE', `${p}/schema?delete_data=true`, { key: s.aliceKey })).status).toBe(204);
    expect((await s.req('GET', `${p}/schema`)).status).toBe(404);
  });
});
