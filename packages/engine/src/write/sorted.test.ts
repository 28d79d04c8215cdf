// Tables whose k-d leaves are sorted by an indexed column: counts, selects and deletes agree with a brute-force evaluation.
import { Field, Float64, Int32, Schema, TimestampMillisecond } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { sortedBy } from '../read/execute.js';
import type { Table } from '../table.js';
import { openSnapshot } from '../read/snapshot.js';
import { freshStore } from '../test-util/store.js';
import { compactOnce } from './compact.js';
import { sortRows } from './tiers.js';

const schema = new Schema([new Field('d', new Float64(), true, new Map([['index', 'true']])), new Field('id', new Int32(), false)]);
const cell = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom(-0, 0, 0.5, Number.NaN, null));
type Row = { d: number | null; id: number };
type Tri = boolean | null;
// a filter as its text and its three-valued meaning on a row (null compares to null, NaN compares false but `!=` true)
type Filter = { text: string; on: (r: Row) => Tri };
const cmp: Record<string, (a: number, b: number) => boolean> = { '<': (a, b) => a < b, '<=': (a, b) => a <= b, '>': (a, b) => a > b, '>=': (a, b) => a >= b, '==': (a, b) => a === b, '!=': (a, b) => a !== b };
const compare = fc
  .tuple(fc.constantFrom(...Object.keys(cmp)), fc.oneof(fc.integer({ min: -21, max: 21 }).map(String), fc.constantFrom('-0', '0.5')))
  .map(([o, b]): Filter => ({ text: `d ${o} ${b}`, on: (r) => (r.d === null ? null : cmp[o]!(r.d, Number(b))) }));
const leaf = fc.oneof(
  compare,
  fc.constantFrom<Filter>(
    { text: 'd is null', on: (r) => r.d === null },
    { text: 'd is not null', on: (r) => r.d !== null },
    { text: 'id < 30', on: (r) => r.id < 30 },
    { text: 'd in (3, -4)', on: (r) => (r.d === null ? null : r.d === 3 || r.d === -4) },
  ),
);
const and3 = (a: Tri, b: Tri): Tri => (a === false || b === false ? false : a === null || b === null ? null : true);
const or3 = (a: Tri, b: Tri): Tri => (a === true || b === true ? true : a === null || b === null ? null : false);
const filter: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small' },
    leaf,
    leaf,
    fc.tuple(tie('f'), tie('f')).map(([a, b]): Filter => ({ text: `(${a.text}) and (${b.text})`, on: (r) => and3(a.on(r), b.on(r)) })),
    fc.tuple(tie('f'), tie('f')).map(([a, b]): Filter => ({ text: `(${a.text}) or (${b.text})`, on: (r) => or3(a.on(r), b.on(r)) })),
    tie('f').map((a): Filter => ({ text: `not (${a.text})`, on: (r) => (a.on(r) === null ? null : !a.on(r)) })),
  ),
})).f;

// random filters against `rows` (the table's rows): counts and selects equal a brute-force evaluation,
// and deletes of a few rows at a time remove exactly those
async function agreesWithBruteForce(t: Table, rows: readonly Row[], seed: number): Promise<void> {
  let live = rows;
  await fc.assert(
    fc.asyncProperty(filter, fc.boolean(), async ({ text: query, on }, remove) => {
      const want = live.filter((r) => on(r) === true).map((r) => r.id).sort((a, b) => a - b);
      expect(await t.select(query).count()).toBe(want.length);
      expect((await t.select(query).all()).map((r) => r.id as number).sort((a, b) => a - b)).toEqual(want);
      if (remove && want.length < 20) {
        expect(await t.transaction((tx) => tx.delete(query))).toBe(want.length);
        live = live.filter((r) => !want.includes(r.id));
      }
    }),
    { numRuns: 120, seed },
  );
  expect((await t.select().all()).length).toBe(live.length);
}

describe('sorted k-d leaves', () => {
  it('sortRows orders rows by key like a stable comparison sort, NaN last, -0 and +0 tied', () => {
    const key = fc.oneof(fc.double(), fc.constantFrom(-0, 0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e-310, -1e-310));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 300 }), fc.array(fc.nat()), (keys, picks) => {
        const k = Float64Array.from(keys);
        const rows = Int32Array.from(new Set(picks.map((p) => p % Math.max(1, keys.length)).filter((p) => p < keys.length))).sort();
        const rank = (x: number) => (Number.isNaN(x) ? Number.POSITIVE_INFINITY : x);
        const expected = Array.from(rows).sort((a, b) => (Number.isNaN(k[a]!) ? 1 : 0) - (Number.isNaN(k[b]!) ? 1 : 0) || rank(k[a]!) - rank(k[b]!) || 0);
        expect(Array.from(sortRows(rows, k))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('counts, selects and deletes of range filters equal a brute-force evaluation', async () => {
    const store = await freshStore({ partitionRows: 1024, compactRun: 100 });
    try {
      const t = store.table('s');
      await t.create(schema);
      const ctx = (t as unknown as { ctx: StoreContext }).ctx;
      const data = fc.sample(fc.array(cell, { minLength: 200, maxLength: 200 }), { numRuns: 1, seed: 7 })[0]!;
      const rows: Row[] = data.map((d, id) => ({ d, id }));
      for (let b = 0; b < rows.length; b += 25) await t.insert(rows.slice(b, b + 25));
      Object.assign(ctx.options, { compactRun: 2, partitionRows: 160 }); // leaves of 40 rows
      const id = openSnapshot(ctx, 's');
      id.release();
      while (await compactOnce(ctx, 's', id.record.id));
      const snap = openSnapshot(ctx, 's');
      snap.release();
      expect(snap.parts.length).toBeGreaterThan(2);
      expect(snap.parts.every((p) => p.sortedBy === 'd')).toBe(true);
      await agreesWithBruteForce(t, rows, 11);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('partitions whose rows happen to be ascending by a column narrow by it too: counts, selects and deletes equal a brute-force evaluation', async () => {
    const store = await freshStore({ partitionRows: 1024, compactRun: 100 });
    const plain = new Schema([new Field('d', new Float64(), true), new Field('id', new Int32(), false)]);
    const t = store.table('a');
    await t.create(plain);
    const ctx = (t as unknown as { ctx: StoreContext }).ctx;
    // eight inserts of 25 rows, no index: every other one with its rows ascending by d (nulls and NaN last)
    const data = fc.sample(fc.array(cell, { minLength: 200, maxLength: 200 }), { numRuns: 1, seed: 5 })[0]!;
    const rank = (d: number | null) => (d === null || Number.isNaN(d) ? Number.POSITIVE_INFINITY : d);
    const rows: Row[] = [];
    for (let b = 0; b < data.length; b += 25) {
      const chunk = data.slice(b, b + 25);
      if ((b / 25) % 2 === 0) chunk.sort((x, y) => rank(x) - rank(y));
      const made = chunk.map((d, i) => ({ d, id: b + i }));
      rows.push(...made);
      await t.insert(made);
    }
    const snap = openSnapshot(ctx, 'a');
    snap.release();
    expect(snap.parts.length).toBe(8);
    expect(snap.parts.every((p) => p.sortedBy === undefined)).toBe(true);
    // the ascending partitions are found so once a filter reads d (the others are not)
    await t.select('d > 0').count();
    const found = await Promise.all(snap.parts.map(async (p) => {
      const data = ctx.cache.get(`${p.id}/d`)?.data;
      return data ? sortedBy(p, { columns: ['d'] } as never, ['d'], [data], true).sortedBy : 'not cached';
    }));
    expect(found.filter((f) => Array.isArray(f) && f[0] === 'd').length).toBeGreaterThanOrEqual(4);
    await agreesWithBruteForce(t, rows, 13);
  }, 60_000);

  it('time-ordered inserts narrow by their timestamps: time ranges answer exactly', async () => {
    const store = await freshStore({ partitionRows: 1024, compactRun: 100 });
    const t = store.table('tm');
    await t.create(new Schema([new Field('time', new TimestampMillisecond(), true), new Field('id', new Int32(), false)]));
    // four inserts of 60 rows: two in time order (a null at the end of one), two shuffled
    const rows: { time: Date | null; id: number }[] = [];
    for (let b = 0; b < 4; b++) {
      const ms = Array.from({ length: 60 }, (_, i) => 1_000 * b + i); // one a millisecond: bounds fall on rows
      if (b % 2 === 1) ms.reverse();
      const made = ms.map((m, i) => ({ time: b === 2 && i === 59 ? null : new Date(m), id: 60 * b + i }));
      rows.push(...made);
      await t.insert(made);
    }
    const iso = (ms: number) => new Date(ms).toISOString();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3 }), fc.integer({ min: -3, max: 62 }), fc.integer({ min: 0, max: 1_200 }), fc.boolean(), async (block, at, width, half) => {
        const from = 1_000 * block + at;
        const a = half ? from + 0.5 : from; // a bound between two milliseconds, too
        const query = `time >= '${iso(Math.floor(a))}' and time < '${iso(from + width)}'`.replace(/Z'/, half ? "5Z'" : "Z'");
        const want = rows.filter((r) => r.time !== null && r.time.getTime() >= a && r.time.getTime() < from + width).map((r) => r.id).sort((x, y) => x - y);
        expect(await t.select(query).count()).toBe(want.length);
        expect((await t.select(query).all()).map((r) => r.id as number).sort((x, y) => x - y)).toEqual(want);
      }),
      { numRuns: 150, seed: 17 },
    );
  });

  it('leaves of tables indexed on latitude/longitude are sorted by the first of them, and 2-D filters still answer exactly', async () => {
    const store = await freshStore({ partitionRows: 1024, compactRun: 100 });
    try {
      const t = store.table('ll');
      const latlon = new Schema([
        new Field('lat', new Float64(), false, new Map([['index', 'true'], ['class', 'latitude']])),
        new Field('lon', new Float64(), false, new Map([['index', 'true'], ['class', 'longitude']])),
        new Field('d', new Float64(), false, new Map([['index', 'true']])),
      ]);
      await t.create(latlon);
      const ctx = (t as unknown as { ctx: StoreContext }).ctx;
      for (let b = 0; b < 200; b += 25) await t.insert(Array.from({ length: 25 }, (_, i) => ({ lat: ((b + i) * 37) % 180 - 90, lon: ((b + i) * 53) % 360 - 180, d: (b + i) % 17 })));
      Object.assign(ctx.options, { compactRun: 2, partitionRows: 160 });
      const id = openSnapshot(ctx, 'll');
      id.release();
      while (await compactOnce(ctx, 'll', id.record.id));
      const snap = openSnapshot(ctx, 'll');
      snap.release();
      expect(snap.parts.length).toBeGreaterThan(2);
      // the first searchable indexed column orders the leaves, a latitude as any other
      expect(snap.parts.every((p) => p.sortedBy === 'lat')).toBe(true);
      const all = Array.from({ length: 200 }, (_, k) => ({ lat: (k * 37) % 180 - 90, lon: (k * 53) % 360 - 180, d: k % 17 }));
      expect(await t.select('lat > 0 and d < 5').count()).toBe(all.filter((r) => r.lat > 0 && r.d < 5).length);
      const box = all.filter((r) => r.lat >= -30 && r.lat <= 45 && r.lon > 0 && r.lon < 120);
      expect(box.length).toBeGreaterThan(0);
      expect(await t.select('lat >= -30 and lat <= 45 and lon > 0 and lon < 120').count()).toBe(box.length);
    } finally {
      await store.close();
    }
  });
});
