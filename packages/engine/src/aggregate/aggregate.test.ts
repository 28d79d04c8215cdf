import { Field, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import fc from 'fast-check';
import { latLngToCell, polygonToCells } from 'h3-js';
import { describe, expect, it } from 'vitest';
import { rejected } from '../test-util/errors.js';
import { freshStore } from '../test-util/store.js';

const schema = new Schema([
  new Field('platform', new Utf8(), true),
  new Field('depth', new Int32(), false),
  new Field('temp', new Float64(), true, new Map([['aggr', 'mean']])),
  new Field('lat', new Float64(), true, new Map([['class', 'latitude']])),
  new Field('lon', new Float64(), true, new Map([['class', 'longitude']])),
  new Field('geom', new Utf8(), true, new Map([['class', 'geometry']])),
]);
interface Obs { platform: string | null; depth: number; temp: number | null; lat: number | null; lon: number | null; geom: string | null }

const obs: fc.Arbitrary<Obs> = fc.record({
  platform: fc.option(fc.constantFrom('a', 'b', 'c', 'ü'), { nil: null, freq: 6 }),
  depth: fc.integer({ min: 0, max: 50 }),
  temp: fc.option(fc.double({ min: -5, max: 35, noNaN: true }), { nil: null, freq: 6 }),
  point: fc.option(fc.tuple(fc.double({ min: -80, max: 80, noNaN: true }), fc.double({ min: -179, max: 179, noNaN: true })), { nil: null, freq: 6 }),
}).map(({ point, ...r }) => ({ ...r, lat: point?.[0] ?? null, lon: point?.[1] ?? null, geom: point ? `POINT(${point[1]} ${point[0]})` : null }));

async function load(rows: Obs[], options: { workers?: number; partitionRows?: number; inlineRows?: number } = {}) {
  const store = await freshStore(options);
  const t = store.table('obs');
  await t.create(schema);
  for (let i = 0; i < rows.length; i += 20) await t.insert(rows.slice(i, i + 20) as unknown as Record<string, unknown>[]);
  return t;
}

type Key = string | number | boolean | null;
/** A straightforward reference: every aggregate of temp per key, keys of one row from `keysOf`. */
function reference(rows: Obs[], keysOf: (r: Obs) => Key[]) {
  const groups = new Map<Key, { rows: number; temps: number[] }>();
  for (const r of rows) for (const k of new Set(keysOf(r))) {
    const g = groups.get(k) ?? { rows: 0, temps: [] };
    g.rows++;
    if (r.temp !== null) g.temps.push(r.temp);
    groups.set(k, g);
  }
  return new Map([...groups].map(([k, g]) => [k, {
    '*': g.rows,
    count: g.temps.length,
    sum: g.temps.length ? g.temps.reduce((a, b) => a + b, 0) : null,
    avg: g.temps.length ? g.temps.reduce((a, b) => a + b, 0) / g.temps.length : null,
    min: g.temps.length ? Math.min(...g.temps) : null,
    max: g.temps.length ? Math.max(...g.temps) : null,
  }]));
}

async function check(t: Awaited<ReturnType<typeof load>>, groupBy: string, expected: ReturnType<typeof reference>, query?: string) {
  for (const fn of ['avg', 'sum', 'min', 'max', 'count'] as const) {
    const table = await t.aggregate(groupBy, { aggr: { temp: fn }, query });
    const keys = table.getChildAt(0)!.toArray() as Key[];
    expect(table.schema.fields.map((f) => f.name)).toEqual([groupBy, 'temp', '*']);
    expect(new Set([...keys].map((k) => (typeof k === 'bigint' ? Number(k) : k)))).toEqual(new Set(expected.keys()));
    // groups come sorted by key, a null key last
    const sorted = [...keys].sort((a, b) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0));
    expect([...keys]).toEqual(sorted);
    [...keys].forEach((k, i) => {
      const want = expected.get(typeof k === 'bigint' ? Number(k) : k)!;
      expect(table.getChild('*')!.get(i)).toBe(want['*']);
      const got = table.getChild('temp')!.get(i) as number | null;
      if (want[fn] === null || fn === 'count' || fn === 'min' || fn === 'max') expect(got).toBe(want[fn]);
      else expect(got).toBeCloseTo(want[fn]!, 9);
    });
  }
}

describe('aggregate', () => {
  it('equals a reference for every aggr, key kind, bucket bounds and h3 resolution', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(obs, { maxLength: 60 }), fc.array(fc.integer({ min: -1, max: 52 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 15 }), async (rows, bounds, res) => {
        const t = await load(rows, { partitionRows: 8 });
        await check(t, 'platform', reference(rows, (r) => [r.platform]));
        await check(t, 'platform', reference(rows.filter((r) => r.depth < 30), (r) => [r.platform]), 'depth < 30');
        await check(t, `h3(lat, lon, ${res})`, reference(rows.filter((r) => r.depth >= 30), (r) => [r.lat === null ? null : latLngToCell(r.lat, r.lon!, res)]), 'depth >= 30');
        await check(t, 'depth > 20', reference(rows, (r) => [r.depth > 20]));
        await check(t, 'depth % 3', reference(rows.filter((r) => r.depth < 40), (r) => [r.depth % 3]), 'depth < 40');
        await check(t, `bucket(depth, ${bounds.join(', ')})`, reference(rows, (r) => bounds.filter((b) => b >= r.depth)));
        const cell = (r: Obs) => [r.lat === null ? null : latLngToCell(r.lat, r.lon!, res)];
        await check(t, `h3(lat, lon, ${res})`, reference(rows, cell));
        await check(t, `h3(geom, ${res})`, reference(rows, cell));
        await check(t, `h3(${res})`, reference(rows, cell));
        // deleted rows drop out of filtered and unfiltered groups alike (the scan's selection buffer is reused across partitions)
        await t.transaction(async (tx) => void (await tx.delete('depth % 4 == 1')));
        const kept = rows.filter((r) => r.depth % 4 !== 1);
        await check(t, 'platform', reference(kept.filter((r) => r.depth < 30), (r) => [r.platform]), 'depth < 30');
        await check(t, 'platform', reference(kept, (r) => [r.platform]));
        await check(t, `h3(lat, lon, ${res})`, reference(kept.filter((r) => r.depth >= 30), cell), 'depth >= 30');
      }),
      { numRuns: 12 },
    );
  });

  it('gives the same groups for any number of workers and partitions', async () => {
    const rows = fc.sample(obs, { numRuns: 120, seed: 7 });
    const results = [];
    for (const options of [{ workers: 0, partitionRows: 1 << 20 }, { workers: 2, partitionRows: 16, inlineRows: 1 }, { workers: 0, partitionRows: 50 }]) {
      const t = await load(rows, options);
      results.push((await t.aggregate('platform', { aggr: { temp: 'avg', depth: 'sum' } })).toArray().map((r) => r.toJSON()));
      results.push((await t.aggregate('h3(lat, lon, 2)', { aggr: { temp: 'avg', depth: 'sum' } })).toArray().map((r) => r.toJSON()));
    }
    expect(results[3]).toEqual(results[1]);
    expect(results[5]).toEqual(results[1]);
    expect(results[2]).toEqual(results[0]);
    expect(results[4]).toEqual(results[0]);
  });

  it('documents empty groups, nulls and null keys; aggr metadata; the wire partial form', async () => {
    const t = await load([
      { platform: 'a', depth: 1, temp: null, lat: null, lon: null, geom: null },
      { platform: null, depth: 2, temp: 4, lat: 1, lon: 1, geom: 'POLYGON((0 0, 3 0, 3 3, 0 3, 0 0))' },
      { platform: null, depth: 3, temp: 6, lat: 1, lon: 1, geom: null },
    ]);
    // without aggr: the columns' aggr metadata (temp: mean)
    const byPlatform = (await t.aggregate('platform')).toArray().map((r) => r.toJSON());
    expect(byPlatform).toEqual([{ platform: 'a', temp: null, '*': 1 }, { platform: null, temp: 5, '*': 2 }]);
    // neither aggr nor metadata: only the row count
    const plain = await t.aggregate('depth > 1', { aggr: {} });
    expect(plain.schema.fields.map((f) => f.name)).toEqual(['depth > 1', 'temp', '*']);
    const partial = (await t.aggregatePartials('platform', { aggr: { temp: 'mean' } })).toArray().map((r) => r.toJSON());
    expect(partial).toEqual([
      { '': 'a', temp_sum: null, temp_count: 0, temp_min: null, temp_max: null, '*': 1 },
      { '': null, temp_sum: 10, temp_count: 2, temp_min: 4, temp_max: 6, '*': 2 },
    ]);
    // a null point is the null cell, sorted last, in the final and the partial form (cell keys are numbers until then)
    const one = latLngToCell(1, 1, 4);
    expect((await t.aggregate('h3(lat, lon, 4)', { aggr: { temp: 'sum' } })).toArray().map((r) => r.toJSON())).toEqual([
      { 'h3(lat, lon, 4)': one, temp: 10, '*': 2 },
      { 'h3(lat, lon, 4)': null, temp: null, '*': 1 },
    ]);
    expect((await t.aggregatePartials('h3(lat, lon, 4)', { aggr: { temp: 'sum' } })).toArray().map((r) => r.toJSON())).toEqual([
      { '': one, temp_sum: 10, temp_count: 2, temp_min: 4, temp_max: 6, '*': 2 },
      { '': null, temp_sum: null, temp_count: 0, temp_min: null, temp_max: null, '*': 1 },
    ]);
    // a polygon joins every cell whose centroid lies inside
    const cells = (await t.aggregate('h3(geom, 3)', { aggr: { temp: 'sum' } })).getChildAt(0)!.toArray();
    const inside = polygonToCells([[[0, 0], [3, 0], [3, 3], [0, 3], [0, 0]]], 3, true);
    expect([...cells].filter((c) => c !== null).sort()).toEqual(inside.sort());
  });

  it('min and max order -0 below +0 whatever the row and partition order (as Math.min/max)', async () => {
    const row = (temp: number) => ({ platform: 'a', depth: 1, temp, lat: null, lon: null, geom: null });
    for (const temps of [[-0, 0], [0, -0], [0, -0, 0], [-0, 0, -0]]) {
      for (const partitionRows of [1, 1 << 20]) {
        const t = await load(temps.map(row), { partitionRows });
        const min = (await t.aggregate('platform', { aggr: { temp: 'min' } })).getChild('temp')!.get(0);
        const max = (await t.aggregate('platform', { aggr: { temp: 'max' } })).getChild('temp')!.get(0);
        expect(Object.is(min, -0)).toBe(true);
        expect(Object.is(max, 0)).toBe(true);
      }
    }
  });

  it('rejects bad group keys and aggr with the token or column', async () => {
    const t = await load([]);
    expect(await rejected('QueryType', () => t.aggregate('h3(lat, lon, 16)'))).toMatchObject({ token: '16' });
    expect(await rejected('QueryType', () => t.aggregate('nope(depth)'))).toMatchObject({ token: 'nope' });
    expect(await rejected('QueryType', () => t.aggregate('bucket(platform, 1)'))).toMatchObject({ token: 'platform' });
    expect(await rejected('InvalidArgument', () => t.aggregate('platform', { aggr: { temp: 'median' } }))).toMatchObject({ column: 'temp' });
    expect(await rejected('InvalidArgument', () => t.aggregate('platform', { aggr: { platform: 'sum' } }))).toMatchObject({ column: 'platform' });
    // result columns are found by name: a key and an aggregate of one name would hide one another
    const t2 = await load([{ platform: 'a', depth: 3, temp: 1, lat: null, lon: null, geom: null }, { platform: 'a', depth: 3, temp: 2, lat: null, lon: null, geom: null }]);
    expect((await rejected('InvalidArgument', () => t2.aggregate('temp'))).message).toBe(
      'aggregate: the group key and the aggregate of column "temp" would both be named "temp"; group by "(temp)" to have both',
    );
    expect((await rejected('InvalidArgument', () => t2.aggregate('depth', { aggr: { depth: 'count' } }))).column).toBe('depth');
    const both = await t2.aggregate('(depth)', { aggr: { depth: 'count', temp: 'sum' } });
    expect(both.schema.fields.map((f) => f.name)).toEqual(['(depth)', 'depth', 'temp', '*']);
    expect(both.toArray().map((r) => r.toJSON())).toEqual([{ '(depth)': 3, depth: 2, temp: 3, '*': 2 }]);
    // the wire's partials never clash
    expect((await t2.aggregatePartials('depth', { aggr: { depth: 'count' } })).numRows).toBe(1);
    // a misspelt option is refused, not ignored (`filter` for `query` would group every row)
    expect((await rejected('InvalidArgument', () => t.aggregate('platform', { filter: 'depth > 1' } as never))).message).toBe(
      'unknown option "filter"; the options are query, aggr, vars',
    );
  });
});
