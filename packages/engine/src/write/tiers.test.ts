// Dynamic partitioning on indexed columns: k-d splits keep key ranges compact whatever the arrival order.
import fc from 'fast-check';
import { Field, Float64, Int32, Int64, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { openStore } from '../index.js';
import { plan } from '../read/plan.js';
import { openSnapshot } from '../read/snapshot.js';
import { tempDir } from '../test-util/tmp.js';
import type { PartRecord } from '../storage/records.js';
import { kdSplit } from './kd-split.js';
import { pickTier } from './tiers.js';

const indexed = new Map([['index', 'true']]);
const schema = new Schema([
  new Field('id', new Int32(), false),
  new Field('time', new Int64(), false, indexed),
  new Field('depth', new Float64(), true, indexed),
]);

describe('kdSplit', () => {
  it('covers every row once, in leaves of at most maxRows with ordered key ranges', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ noNaN: true }), fc.integer({ min: 0, max: 5 })), { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (pts, max) => {
        const a = Float64Array.from(pts.map((p) => p[0]));
        const b = Float64Array.from(pts.map((p) => p[1]));
        const leaves = kdSplit([a, b], pts.length, max);
        const seen = leaves.flatMap((l) => [...l]).sort((x, y) => x - y);
        expect(seen).toEqual(pts.map((_, i) => i));
        for (const l of leaves) {
          expect(l.length).toBeLessThanOrEqual(max);
          expect([...l]).toEqual([...l].sort((x, y) => x - y)); // rows keep their order
        }
      }),
    );
  });
});

describe('dynamic partitioning', () => {
  it('splits deltas once they hold more rows than a leaf, not only a partition\'s worth', () => {
    const delta = (id: string, rows: number) => ({ id, rows, seq: 0 }) as PartRecord;
    const rows = (p: PartRecord) => p.rows;
    expect(pickTier([delta('a', 250)], 1000, 4, rows)).toBeNull(); // a leaf's worth: read whole either way
    expect(pickTier([delta('a', 900)], 1000, 4, rows)?.inputs.map((p) => p.id)).toEqual(['a']);
    expect(pickTier([delta('a', 100), delta('b', 200)], 1000, 4, rows)?.level).toBe(1);
  });

  for (const order of ['time-ordered', 'random-order'] as const) {
    it(`leaves ${order} appends well partitioned: a narrow range reads few partitions`, async () => {
      const dir = await tempDir();
      try {
        let seed = 7;
        const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
        const N = 24_000;
        const times = Array.from({ length: N }, (_, i) => i);
        if (order === 'random-order') times.sort(() => random() - 0.5);
        let store = await openStore({ path: dir.path, workers: 0, partitionRows: 1000, compactRun: 4 });
        const t = store.table('obs');
        await t.create(schema);
        for (let b = 0; b < N; b += 500) {
          await t.insert(times.slice(b, b + 500).map((time, k) => ({ id: b + k, time: BigInt(time), depth: random() * 6000 })));
        }
        await store.close(); // waits for the background merges
        store = await openStore({ path: dir.path, workers: 0, partitionRows: 1000, compactRun: 4 });
        const ctx = (store as unknown as { ctx: StoreContext }).ctx;
        const snap = openSnapshot(ctx, 'obs');
        try {
          const reads = (filter: string) => snap.parts.filter((p) => plan(snap.schema, 'obs', filter).mayMatch(p.zones)).length;
          expect(snap.parts.length).toBeGreaterThanOrEqual(48);
          // 0.1% of the rows: a few partitions per run (unindexed, every delta spans everything: all of them)
          expect(reads('depth > 5994')).toBeLessThanOrEqual(snap.parts.length * 0.3);
          expect(reads('time >= 12000 and time < 12024')).toBeLessThanOrEqual(snap.parts.length * 0.3);
          const all = store.table('obs');
          expect(await all.select().count()).toBe(N);
          expect(await all.select('depth > 5994').count()).toBe((await all.select(undefined, { cols: ['depth'] }).all()).filter((r) => (r.depth as number) > 5994).length);
          const ids = (await all.select(undefined, { cols: ['id'] }).all()).map((r) => r.id as number).sort((a, b) => a - b);
          expect(ids).toEqual(Array.from({ length: N }, (_, i) => i));
        } finally {
          snap.release();
          await store.close();
        }
      } finally {
        await dir.remove();
      }
    }, 60_000);
  }
});
