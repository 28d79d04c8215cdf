// Tabular v1 OQS filters name real columns and compare exactly: through the engine and row by row
// (geometry operators), for int64 beyond 2^53 and timestamps as list writes them.
import { Binary, Field, Int32, Schema } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';

let s: TestServer;
const ref = '/data/catalog.example.io/dataset/filters';
const BIG = '9007199254740993';
// every row lies in the square; ids and times as list writes them
const rows = [
  { id: BIG, n: 1, t: '2024-01-01T00:00:48.000Z', tu: '2024-05-01T12:00:00.123456Z', g: 'POINT (1 1)' },
  { id: '9007199254740995', n: 2, t: '2024-01-01T00:00:47.999Z', tu: '2024-05-01T12:00:00.123457Z', g: 'POINT (2 2)' },
  { id: 5, n: 3, t: '2024-01-01T00:00:49.000Z', tu: '2024-05-01T12:00:00.000000Z', g: 'POINT (3 3)' },
];
const SQUARE = { type: 'Polygon', coordinates: [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]] };
const inSquare = { '#ST_WITHIN': ['$g', SQUARE] };

beforeAll(async () => {
  s = await startTestServer();
  expect((await s.json('POST', '/catalog', { json: manifests.dataset('filters', 'tabular'), key: s.aliceKey })).status).toBe(201);
  const table_schema = { id: { type: 'int64' }, n: { type: 'int32' }, t: { type: 'timestamp' }, tu: { type: 'timestamp[us]' }, g: { type: 'geometry' } };
  expect((await s.json('POST', `${ref}/schema`, { json: { table_schema }, key: s.aliceKey })).status).toBe(200);
  expect((await s.json('POST', ref, { json: { data: rows }, key: s.aliceKey })).status).toBe(200);
});
afterAll(() => s.close());

const list = (filter: unknown, path = ref) => s.json('POST', `${path}/list`, { json: filter, key: s.aliceKey });
const ns = async (filter: unknown): Promise<number[]> => {
  const r = await list(filter);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.data as { n: number }[]).map((x) => x.n).sort();
};
const rowByRow = (f: unknown) => ({ '#AND': [inSquare, f] });

describe('spatial operators name a column that holds geometry', () => {
  it('400 naming an unknown column or one that is not a geometry, wherever it stands in the filter', async () => {
    const point = { type: 'Point', coordinates: [0, 0] };
    for (const [filter, column] of [
      [{ '#ST_WITHIN': ['$nope', point] }, 'nope'],
      [{ '#ST_INTERSECTS': [point, '$nope'] }, 'nope'],
      [{ '#OR': [inSquare, { '#NEGATE': { '#ST_CONTAINS': ['$nope.x', point] } }] }, 'nope'],
      [{ '#ST_WITHIN': ['$n', point] }, 'n'],
      [{ '#ST_EQUALS': ['$t', point] }, 't'],
      [rowByRow({ '#EQUALS': ['$colour', 'red'] }), 'colour'],
      [rowByRow({ '#NULL': '$colour' }), 'colour'],
      [rowByRow({ colour: 'red' }), 'colour'],
    ] as const) {
      const r = await list(filter);
      expect(r.status, JSON.stringify(filter)).toBe(400);
      expect(r.body.description).toContain(`column '${column}'`);
    }
    expect((await list({ '#ST_WITHIN': ['$n', point] })).body.description).toMatch(/column 'n' is int32, not a geometry column/);
    expect(await ns(inSquare)).toEqual([1, 2, 3]);
  });

  it('a WKB (binary) geometry column, which v1 rows carry as base64, is a 400 rather than no rows', async () => {
    const uuid = (await s.json('POST', '/catalog', { json: manifests.dataset('wkb', 'tabular'), key: s.aliceKey })).body.metadata.uuid as string;
    await s.server.store.table(uuid).create(new Schema([new Field('n', new Int32(), true), new Field('g', new Binary(), true, new Map([['class', 'geometry']]))]));
    const r = await list(inSquare, `/data/${uuid}`);
    expect(r.status).toBe(400);
    expect(r.body.description).toMatch(/column 'g' holds WKB/);
  });
});

describe('int64 beyond 2^53 in filters', () => {
  it('decimal strings compare exactly, through the engine and row by row', async () => {
    for (const wrap of [(f: unknown) => f, rowByRow]) {
      expect(await ns(wrap({ '#EQUALS': ['$id', BIG] }))).toEqual([1]);
      expect(await ns(wrap({ '#EQUALS': [BIG, '$id'] }))).toEqual([1]);
      expect(await ns(wrap({ '#WITHIN': ['$id', ['9007199254740995', '5']] }))).toEqual([2, 3]);
      expect(await ns(wrap({ '#EQUALS': ['$id', 5] }))).toEqual([3]);
    }
    expect(await ns({ '#GREATER_THAN': ['$id', BIG] })).toEqual([2]);
    expect(await ns({ '#LESS_THAN_OR_EQUALS': ['$id', '9007199254740994'] })).toEqual([1, 3]);
  });

  it('a JSON number beyond 2^53 compares exactly too, in list, delete and update filters', async () => {
    const raw = (method: string, path: string, body: string) => s.json(method, path, { body, headers: { 'content-type': 'application/json' }, key: s.aliceKey });
    const filter = '{"#EQUALS": ["$id", 9007199254740993]}';
    const listed = async (body: string) => ((await raw('POST', `${ref}/list`, body)).body.data as { n: number }[]).map((x) => x.n);
    expect(await listed(filter)).toEqual([1]);
    expect(await listed(`{"#AND": [${JSON.stringify(inSquare)}, ${filter}]}`)).toEqual([1]);
    expect(await listed('{"#AND": [{"#GREATER_THAN": ["$id", 9007199254740992]}, {"#LESS_THAN": ["$id", 9007199254740995]}]}')).toEqual([1]);
    const up = await raw('PATCH', ref, `{"update_filters": ${filter}, "data": {"n": 9}}`);
    expect(up.body.num_rows).toBe(1);
    expect(await ns({ '#EQUALS': ['$id', BIG] })).toEqual([9]);
    expect((await raw('PATCH', ref, '{"update_filters": {"#EQUALS": ["$n", 9]}, "data": {"n": 1}}')).body.num_rows).toBe(1);
    // nothing is deleted by the neighbour JSON.parse would have made of it
    expect((await raw('POST', `${ref}/delete`, '{"#EQUALS": ["$id", 9007199254740992]}')).body.num_rows).toBe(0);
    expect(await ns({})).toEqual([1, 2, 3]);
  });

  it('row by row, int64 values beyond 2^53 order as the integers they are (range operators)', async () => {
    const cases: [unknown, number[]][] = [
      [{ '#GREATER_THAN': ['$id', 5] }, [1, 2]],
      [{ '#GREATER_THAN_OR_EQUALS': ['$id', BIG] }, [1, 2]],
      [{ '#LESS_THAN': ['$id', '9007199254740995'] }, [1, 3]],
      [{ '#LESS_THAN_OR_EQUALS': ['$id', 4.5] }, []],
      [{ '#GREATER_THAN': ['$id', 4.5] }, [1, 2, 3]],
    ];
    for (const [f, want] of cases) {
      expect(await ns(f), JSON.stringify(f)).toEqual(want);
      expect(await ns(rowByRow(f)), `row by row ${JSON.stringify(f)}`).toEqual(want);
    }
  });

  it('delete and update take decimal strings too', async () => {
    const up = await s.json('PATCH', ref, { json: { update_filters: { '#EQUALS': ['$id', '9007199254740995'] }, data: { n: 20 } }, key: s.aliceKey });
    expect(up.body.num_rows).toBe(1);
    expect(await ns({ '#EQUALS': ['$id', '9007199254740995'] })).toEqual([20]);
    const back = await s.json('PATCH', ref, { json: { update_filters: { '#EQUALS': ['$n', 20] }, data: { n: 2 } }, key: s.aliceKey });
    expect(back.body.num_rows).toBe(1);
    for (const notInt of [
      await s.json('POST', `${ref}/delete`, { json: { '#EQUALS': ['$id', '12abc'] }, key: s.aliceKey }),
      await list({ '#EQUALS': ['$id', '12abc'] }),
      await list(rowByRow({ '#WITHIN': ['$id', ['1', '12abc']] })),
    ]) {
      expect(notInt.status).toBe(400);
      expect(notInt.body.description).toContain("column 'id': expected an integer");
    }
  });
});

describe('timestamps row by row compare as instants', () => {
  it('an ISO literal in any precision selects as the engine does', async () => {
    const cases: [unknown, number[]][] = [
      [{ '#GREATER_THAN_OR_EQUALS': ['$t', '2024-01-01T00:00:48Z'] }, [1, 3]],
      [{ '#EQUALS': ['$t', '2024-01-01T00:00:48Z'] }, [1]],
      [{ '#EQUALS': ['$t', '2024-01-01T01:00:48+01:00'] }, [1]],
      [{ '#LESS_THAN': ['2024-01-01T00:00:48.0005Z', '$t'] }, [3]],
      [{ '#GREATER_THAN': ['$t', '2024-01-01T00:00:47.9995Z'] }, [1, 3]],
      [{ '#LESS_THAN_OR_EQUALS': ['$t', '2024-01-01T00:00:47.9995Z'] }, [2]],
      [{ '#EQUALS': ['$t', '2024-01-01T00:00:47.9995Z'] }, []],
      [{ '#WITHIN': ['$tu', ['2024-05-01T12:00:00.123456Z', '2024-05-01T12:00:00Z']] }, [1, 3]],
      [{ '#GREATER_THAN': ['$tu', '2024-05-01T12:00:00.1234565Z'] }, [2]],
      [{ '#LESS_THAN': ['$tu', '2024-05-01T12:00:00.123Z'] }, [3]],
    ];
    for (const [f, want] of cases) {
      expect(await ns(f), JSON.stringify(f)).toEqual(want);
      expect(await ns(rowByRow(f)), `row by row ${JSON.stringify(f)}`).toEqual(want);
    }
  });
});
