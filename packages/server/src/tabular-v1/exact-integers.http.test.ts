// Tabular v1 reads integers beyond 2^53 in its JSON bodies exactly, as the Python client writes them
// (JSON.parse would round 9007199254740993 to ...992): insert, list, delete and PATCH touch exactly
// the rows they name, and list answers those values as decimal strings.
import { stringify } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
let n = 0;
const ODD = 9007199254740993n; // 2^53 + 1: JSON.parse reads it as EVEN
const EVEN = 9007199254740992n;
const MIN = -9223372036854775808n;
const MAX = 9223372036854775807n;
const UMAX = 18446744073709551615n;
const SCHEMA = { n: { type: 'int32' }, id: { type: 'int64' }, u: { type: 'uint64' }, x: { type: 'float64' }, g: { type: 'geometry' } };
// every row lies in the square, so wrapping a filter in an #AND with it makes it evaluated row by row
const inSquare = { '#ST_WITHIN': ['$g', { type: 'Polygon', coordinates: [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]] }] };

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

// JSON text with bigints written out as integers (what the Python client sends for large ints)
const text = (v: unknown): string => stringify(v)!;
const send = (method: string, path: string, body: string) => s.json(method, path, { body, headers: { 'content-type': 'application/json' }, key: s.aliceKey });

// a fresh tabular dataset with this v1 schema and rows; returns its reference
async function table(tableSchema: Record<string, unknown>, rows: unknown[] = []): Promise<string> {
  const name = `exact-int${n++}`;
  expect((await s.json('POST', '/catalog', { json: manifests.dataset(name, 'tabular'), key: s.aliceKey })).status).toBe(201);
  const ref = `/data/catalog.example.io/dataset/${name}`;
  expect((await s.json('POST', `${ref}/schema`, { json: { table_schema: tableSchema }, key: s.aliceKey })).status).toBe(200);
  if (rows.length > 0) {
    const r = await send('POST', ref, text({ data: rows }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  return ref;
}

// the rows a list with this filter answers, ordered by n
async function list(ref: string, filter: unknown = {}): Promise<Record<string, unknown>[]> {
  const r = await send('POST', `${ref}/list`, text(filter));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.data as Record<string, unknown>[]).sort((a, b) => Number(a.n) - Number(b.n));
}
const ns = async (ref: string, filter: unknown): Promise<number[]> => (await list(ref, filter)).map((r) => r.n as number);

// rows 1..4: ODD and EVEN told apart, and the int64 limits
const rows = [
  { n: 1, id: ODD, u: UMAX, x: ODD, g: 'POINT (1 1)' },
  { n: 2, id: EVEN, u: ODD, x: 1.5, g: 'POINT (1 1)' },
  { n: 3, id: MIN, u: 0, x: null, g: 'POINT (1 1)' },
  { n: 4, id: MAX, u: 1, x: null, g: 'POINT (1 1)' },
];
// as list answers them: int64/uint64 beyond 2^53 as decimal strings; a float column held the nearest double
const listed = [
  { n: 1, id: '9007199254740993', u: '18446744073709551615', x: 9007199254740992, g: 'POINT (1 1)' },
  { n: 2, id: '9007199254740992', u: '9007199254740993', x: 1.5, g: 'POINT (1 1)' },
  { n: 3, id: '-9223372036854775808', u: 0, x: null, g: 'POINT (1 1)' },
  { n: 4, id: '9223372036854775807', u: 1, x: null, g: 'POINT (1 1)' },
];

describe('insert', () => {
  it('stores int64 and uint64 integers exactly, the limits too; a float column stores the nearest double', async () => {
    const ref = await table(SCHEMA);
    const r = await send('POST', ref, '{"data": [{"n": 1, "id": 9007199254740993, "u": 18446744073709551615, "x": 9007199254740993, "g": "POINT (1 1)"}, {"n": 2, "id": 9007199254740992, "u": 9007199254740993, "x": 1.5, "g": "POINT (1 1)"}, {"n": 3, "id": -9223372036854775808, "u": 0, "x": null, "g": "POINT (1 1)"}, {"n": 4, "id": 9223372036854775807, "u": 1, "x": null, "g": "POINT (1 1)"}]}');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ num_rows: 4 });
    expect(await list(ref)).toEqual(listed);
    // NDJSON answers the same, and what list answers inserts back unchanged
    const nd = await s.req('POST', `${ref}/list`, { json: {}, key: s.aliceKey, headers: { accept: 'application/x-ndjson' } });
    const lines = (await nd.text()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.pop()).toEqual({ '@@end': true });
    expect(lines.sort((a, b) => Number(a.n) - Number(b.n))).toEqual(listed);
    const copy = await table(SCHEMA, listed);
    expect(await list(copy)).toEqual(listed);
  });

  it('an integer beyond the int64 or uint64 range is a 400 naming row and column, and nothing is stored', async () => {
    const ref = await table(SCHEMA);
    for (const [row, column, range] of [
      ['{"n": 1, "id": 9223372036854775808}', 'id', 'int64'],
      ['{"n": 1, "id": -9223372036854775809}', 'id', 'int64'],
      ['{"n": 1, "u": 18446744073709551616}', 'u', 'uint64'],
      ['{"n": 1, "u": -9007199254740993}', 'u', 'uint64'],
    ] as const) {
      const r = await send('POST', ref, `{"data": [{"n": 0, "id": 1}, ${row}]}`);
      expect(r.status, row).toBe(400);
      expect(r.body.description).toMatch(new RegExp(`^row 1, column "${column}": -?\\d+ is out of range for ${range}`));
    }
    expect(await list(ref)).toEqual([]);
  });

  it('other columns answer what the rounded JSON number got before; a number with a fraction beyond 2^53 stays a 400', async () => {
    const ref = await table(SCHEMA);
    const int32 = await send('POST', ref, '{"data": [{"n": 9007199254740993}]}');
    expect(int32.status).toBe(400);
    expect(int32.body.description).toBe('row 0, column "n": 9007199254740992 is out of range for int32 (-2147483648 to 2147483647)');
    const geometry = await send('POST', ref, '{"data": [{"n": 1, "g": 9007199254740993}]}');
    expect(geometry.status).toBe(400);
    expect(geometry.body.description).toBe('row 0, column "g": expected a WKT geometry such as "POINT (10 60)", got 9007199254740993');
    const fraction = await send('POST', ref, '{"data": [{"n": 1, "id": 9007199254740993.0}]}');
    expect(fraction.status).toBe(400);
    expect(fraction.body.description).toMatch(/^row 0, column "id": the JSON number 9007199254740992 is beyond 2\^53 and written with a fraction or exponent/);
    expect(await list(ref)).toEqual([]);
  });
});

describe('filters', () => {
  it('list compares integers beyond 2^53 exactly with int64/uint64 columns, through the engine and row by row', async () => {
    const ref = await table(SCHEMA, rows);
    const cases: [unknown, number[]][] = [
      [{ '#EQUALS': ['$id', ODD] }, [1]],
      [{ '#EQUALS': ['$id', EVEN] }, [2]],
      [{ '#EQUALS': [ODD, '$id'] }, [1]],
      [{ '#WITHIN': ['$id', [ODD, MIN, 5]] }, [1, 3]],
      [{ '#GREATER_THAN': ['$id', EVEN] }, [1, 4]],
      [{ '#GREATER_THAN_OR_EQUALS': ['$id', MAX] }, [4]],
      [{ '#LESS_THAN_OR_EQUALS': ['$id', MIN] }, [3]],
      [{ '#LESS_THAN': ['$id', -9007199254740993n] }, [3]],
      [{ '#EQUALS': ['$u', UMAX] }, [1]],
      [{ '#WITHIN': ['$u', [ODD, 0]] }, [2, 3]],
      [{ '#GREATER_THAN': ['$u', MAX] }, [1]],
      // beyond the column's range: compared exactly, so nothing or everything
      [{ '#GREATER_THAN': ['$id', MAX + 1n] }, []],
      [{ '#LESS_THAN': ['$id', MAX + 1n] }, [1, 2, 3, 4]],
      // a float column compares with the nearest double, as JSON.parse reads it
      [{ '#EQUALS': ['$x', ODD] }, [1]],
      [{ '#GREATER_THAN_OR_EQUALS': ['$x', EVEN] }, [1]],
      [{ '#NEGATE': { '#EQUALS': ['$id', ODD] } }, [2, 3, 4]],
    ];
    for (const [f, want] of cases) {
      expect(await ns(ref, f), text(f)).toEqual(want);
      expect(await ns(ref, { '#AND': [inSquare, f] }), `row by row ${text(f)}`).toEqual(want);
    }
    // the {"query": <OQS>} form, and match-by-example (row by row)
    expect(await ns(ref, { query: { '#EQUALS': ['$id', ODD] } })).toEqual([1]);
    expect(await ns(ref, { id: ODD })).toEqual([1]);
    expect(await ns(ref, { u: UMAX, id: ODD })).toEqual([1]);
    expect(await ns(ref, { x: ODD })).toEqual([1]);
    // the raw text, as a client writes it
    const r = await send('POST', `${ref}/list`, '{"#WITHIN": ["$id", [9007199254740993, -9223372036854775808, 9223372036854775807]]}');
    expect((r.body.data as { n: number }[]).map((x) => x.n).sort()).toEqual([1, 3, 4]);
  });

  it('delete removes exactly the rows named', async () => {
    const ref = await table(SCHEMA, rows);
    const del = await send('POST', `${ref}/delete`, '{"#EQUALS": ["$id", 9007199254740993]}');
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body.num_rows).toBe(1);
    expect(await ns(ref, {})).toEqual([2, 3, 4]);
    const limits = await send('POST', `${ref}/delete`, '{"#WITHIN": ["$id", [-9223372036854775808, 9223372036854775807]]}');
    expect(limits.body.num_rows).toBe(2);
    expect(await list(ref)).toEqual([listed[1]]);
    expect((await send('POST', `${ref}/delete`, '{"#EQUALS": ["$u", 18446744073709551615]}')).body.num_rows).toBe(0);
    expect((await send('POST', `${ref}/delete`, '{"#EQUALS": ["$u", 9007199254740993]}')).body.num_rows).toBe(1);
    expect(await list(ref)).toEqual([]);
  });

  it('PATCH updates exactly the rows its filter names, with exact values', async () => {
    const ref = await table(SCHEMA, rows);
    const up = await send('PATCH', ref, '{"update_filters": {"#EQUALS": ["$id", 9007199254740992]}, "data": {"id": -9223372036854775808, "u": 18446744073709551615, "x": 9007199254740993}}');
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.num_rows).toBe(1);
    const after = [listed[0], { ...listed[1], id: '-9223372036854775808', u: '18446744073709551615', x: 9007199254740992 }, listed[2], listed[3]];
    expect(await list(ref)).toEqual(after);
    // the two rows now at the int64 minimum
    const both = await send('PATCH', ref, '{"update_filters": {"#LESS_THAN_OR_EQUALS": ["$id", -9223372036854775808]}, "data": {"id": 9223372036854775807}}');
    expect(both.body.num_rows).toBe(2);
    expect(await ns(ref, { '#EQUALS': ['$id', MAX] })).toEqual([2, 3, 4]);
    const out = await send('PATCH', ref, '{"update_filters": {"#EQUALS": ["$id", 9007199254740993]}, "data": {"id": 9223372036854775808}}');
    expect(out.status).toBe(400);
    expect(out.body.description).toMatch(/^data, column "id": 9223372036854775808 is out of range for int64/);
    expect(await ns(ref, { '#EQUALS': ['$id', ODD] })).toEqual([1]);
  });
});

describe('no request value makes a 500', () => {
  it('malformed filters and repeated keys with integers beyond 2^53 are 400s that show them; infinite numbers compare', async () => {
    const ref = await table(SCHEMA, rows);
    const bad = await send('POST', `${ref}/list`, '{"#EQUALS": 9007199254740993}');
    expect(bad.status).toBe(400);
    expect(bad.body.description).toBe('invalid OQS filter at #EQUALS: expected an array of exactly 2 operand(s), got 9007199254740993');
    const point = await send('POST', `${ref}/list`, '{"#ST_WITHIN": ["$g", {"type": "Point", "coordinates": [9007199254740993, 0]}]}');
    expect(point.status).toBe(400);
    expect(point.body.description).toMatch(/outside longitude/);
    const twice = await send('POST', `${ref}/delete`, '{"#EQUALS": ["$id", 9007199254740993], "#EQUALS": ["$id", 1]}');
    expect(twice.status).toBe(400);
    expect(twice.body.description).toMatch(/^the JSON body could not be read exactly: Duplicate key '#EQUALS'.*send each key of an object once$/);
    // a number beyond every double (JSON.parse: Infinity) compares row by row as beyond every integer
    for (const [filter, want] of [['{"#GREATER_THAN": ["$id", 1e400]}', []], ['{"#LESS_THAN_OR_EQUALS": ["$id", 1e400]}', [1, 2, 3, 4]], ['{"#GREATER_THAN_OR_EQUALS": ["$u", -1e400]}', [1, 2, 3, 4]], ['{"#EQUALS": ["$id", 1e400]}', []]] as const) {
      const r = await send('POST', `${ref}/list`, filter);
      expect(r.status, filter).toBe(200);
      expect((r.body.data as { n: number }[]).map((x) => x.n).sort(), filter).toEqual(want);
    }
    const stage = await send('POST', ref, '{"data": [], "stage_id": 9007199254740993}');
    expect(stage.status).toBe(400);
    const schema = await send('POST', `${ref}/schema`, '{"table_schema": {"a": {"type": 9007199254740993}}}');
    expect(schema.status).toBe(400);
    expect(await list(ref)).toEqual(listed);
  });

  it('a raw dataset sharing these routes reads such integers as JSON.parse does, as before', async () => {
    const ds = (await s.json('POST', '/catalog', { json: manifests.dataset(`exact-raw${n++}`), key: s.aliceKey })).body.metadata.uuid as string;
    const created = await send('POST', `/data/${ds}`, '{"name": "f.csv", "metadata": {"id": 9007199254740993, "ids": [18446744073709551615]}}');
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const meta = await s.req('GET', `/data/${ds}/f.csv/metadata`, { key: s.aliceKey });
    expect(await meta.text()).toContain('"metadata":{"id":9007199254740992,"ids":[18446744073709552000]}');
    for (const filter of ['{"metadata": {"id": 9007199254740993}}', '{"#EQUALS": ["$metadata.id", 9007199254740992]}']) {
      const r = await send('POST', `/data/${ds}/list`, filter);
      expect(r.status, filter).toBe(200);
      expect(r.body.results.map((f: { name: string }) => f.name)).toEqual(['f.csv']);
    }
  });
});
