// Joins for partition writes: on the part writer the thread joins the batches' chunks itself; on the
// committing thread they land in the part writer's pooled buffers, given back once the file is written;
// a column the cache keeps is a copy of its own, never a pool buffer.
import { Bool, Field, Float64, Int64, RecordBatch, Schema, Struct, Table, Utf8, makeData, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { StoreContext } from '../context.js';
import { openSnapshot } from '../read/snapshot.js';
import { freshStore } from '../test-util/store.js';
import { MIN_POOLED, type SharedPool } from './shared-pool.js';

const schema = new Schema([new Field('id', new Int64(), false), new Field('v', new Float64(), false), new Field('s', new Utf8(), false)]);

// rows [from, from + n) of the table, v = id * k, s = a name of id
const batch = (from: number, n: number, k: number): RecordBatch => {
  const children = [
    vectorFromArray(Array.from({ length: n }, (_, i) => BigInt(from + i)), new Int64()).data[0]!,
    vectorFromArray(Array.from({ length: n }, (_, i) => (from + i) * k), new Float64()).data[0]!,
    vectorFromArray(Array.from({ length: n }, (_, i) => `name-${(from + i) % 977}`), new Utf8()).data[0]!,
  ];
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children }));
};

describe('joined columns of a partition write', () => {
  it('copy into pooled buffers on both threads (unshared chunks for the part writer, joins on the committing thread), given back once written', async () => {
    // inlineRows 1: no delta is warmed, every joined column goes through the pool
    const store = await freshStore({ workers: 1, compactRun: 100, inlineRows: 1 });
    const t = store.table('obs');
    await t.create(schema);
    const ctx = (store as unknown as { ctx: StoreContext }).ctx;
    const pool = ctx.partWriter!.buffers;
    const acquired = recordAcquired(pool, MIN_POOLED);
    const expected: string[] = [];
    for (let round = 0; round < 3; round++) {
      // three batches of 6k rows: more than the shared tail's 8192, so half is written on the part
      // writer and half on the committing thread, each joined from several chunks
      await t.transaction(async (tx) => {
        for (let b = 0; b < 3; b++) {
          const from = round * 18_000 + b * 6000;
          await tx.insert(batch(from, 6000, round + 1));
          for (let i = 0; i < 6000; i++) expected.push(`${from + i}|${(from + i) * (round + 1)}|name-${(from + i) % 977}`);
        }
      });
      expect(acquired.size).toBeGreaterThan(0);
      // all given back (a write the committing thread took over ends on the part writer later)
      await vi.waitFor(() => expect(pool.bytesHeld).toBe([...acquired].reduce((n, b) => n + b.byteLength, 0)), { timeout: 20_000 });
    }
    const got = (await t.select(undefined, { cols: ['id', 'v', 's'] }).all()).map((r) => `${r.id}|${r.v}|${r.s}`);
    expect(got.sort()).toEqual(expected.sort());
  });

  it('keeps a column the cache holds as a private copy, unharmed when the pool reuses its buffers', async () => {
    const store = await freshStore({ workers: 1, compactRun: 100 });
    const t = store.table('obs');
    await t.create(schema);
    const ctx = (store as unknown as { ctx: StoreContext }).ctx;
    const pool = ctx.partWriter!.buffers;
    const acquired = recordAcquired(pool, 0);
    await t.insert(batch(0, 100, 1));
    expect(await t.select('v >= 50').count()).toBe(50); // readers of the table now keep `v` cached
    // a delta joined from three batches, written on the part writer: `v` is warmed into the cache as written
    const three = (from: number, k: number) => new Table(schema, [0, 1, 2].map((b) => batch(from + b * 6000, 6000, k)));
    await t.insert(three(100, 1));
    // the delta's parts, in row order
    const snap = openSnapshot(ctx, 'obs');
    const deltas = snap.parts.filter((p) => p.rows !== 100).sort((a, b) => a.seq - b.seq);
    snap.release();
    expect(deltas.reduce((n, p) => n + p.rows, 0)).toBe(18_000);
    let first = 100;
    const cached = deltas.flatMap((p) => {
      const data = ctx.cache.get(`${p.id}/v`)?.data;
      first += p.rows;
      return data ? [{ data, first: first - p.rows }] : [];
    });
    expect(cached.length).toBe(deltas.length);
    for (const { data } of cached) expect(acquired.has(data.values.buffer as SharedArrayBuffer)).toBe(false);
    // the next writes reuse (and overwrite) the pooled buffers; the cached column stays as written
    for (let r = 0; r < 2; r++) {
      await t.insert(three(-1e6 - r * 18_000, -7));
    }
    for (const { data, first } of cached) expect(Array.from(data.values as Float64Array)).toEqual(Array.from({ length: data.length }, (_, i) => first + i));
    expect(await t.select('v >= 100 and v < 18100').count()).toBe(18_000);
  });

  it('joined on the part writer from sliced chunks of any sizes, nulls, strings and booleans included, read back as inserted', async () => {
    const nullable = new Schema([new Field('id', new Int64(), false), new Field('v', new Float64(), true), new Field('s', new Utf8(), true), new Field('b', new Bool(), true)]);
    const store = await freshStore({ workers: 1, compactRun: 1000 });
    let k = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.tuple(fc.option(fc.double({ noNaN: true }), { nil: null }), fc.option(fc.string({ maxLength: 70 }), { nil: null }), fc.option(fc.boolean(), { nil: null })), { maxLength: 40 }), { minLength: 1, maxLength: 5 }), fc.nat(50), async (batches, skip) => {
        const t = store.table(`t${k++}`);
        await t.create(nullable);
        let id = 0;
        const made = batches.map((rows) => {
          const ids = rows.map(() => BigInt(id++));
          const children = [
            vectorFromArray(ids, new Int64()).data[0]!,
            vectorFromArray(rows.map((r) => r[0]), new Float64()).data[0]!,
            vectorFromArray(rows.map((r) => r[1]), new Utf8()).data[0]!,
            vectorFromArray(rows.map((r) => r[2]), new Bool()).data[0]!,
          ];
          return new RecordBatch(nullable, makeData({ type: new Struct(nullable.fields), length: rows.length, nullCount: 0, children }));
        });
        // the first batch sliced (chunks with offsets, bitmaps read from a bit offset)
        const from = Math.min(skip, made[0]!.numRows);
        const input = [made[0]!.slice(from), ...made.slice(1)].filter((b) => b.numRows > 0);
        const expected = input.flatMap((b) => b.toArray().map((r) => JSON.stringify(r.toJSON(), (_k, v) => (typeof v === 'bigint' ? `${v}` : v))));
        if (input.length > 0) await t.insert(new Table(nullable, input));
        const got = (await t.select().all()).map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)));
        expect(got).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });
});

// every buffer of at least `minBytes` the pool hands out from now on
function recordAcquired(pool: SharedPool, minBytes: number): Set<SharedArrayBuffer> {
  const acquired = new Set<SharedArrayBuffer>();
  const acquire = pool.acquire.bind(pool);
  pool.acquire = (bytes) => {
    const b = acquire(bytes);
    if (b.byteLength >= minBytes) acquired.add(b);
    return b;
  };
  return acquired;
}
