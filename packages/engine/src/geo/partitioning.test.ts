// `index` on a geometry column: a time-ordered append of positions ends up in spatially tight partitions.
import { Field, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import { expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { openStore } from '../index.js';
import { candidates } from '../read/execute.js';
import { plan } from '../read/plan.js';
import { openSnapshot } from '../read/snapshot.js';
import { tempDir } from '../test-util/tmp.js';

it('splits an indexed geometry column by box centre, so a small box reads few partitions', async () => {
  const dir = await tempDir();
  const schema = new Schema([
    new Field('id', new Int32(), false),
    new Field('temp', new Float64(), true),
    new Field('geom', new Utf8(), false, new Map([['class', 'geometry'], ['index', 'true']])),
  ]);
  try {
    let store = await openStore({ path: dir.path, workers: 0, partitionRows: 1000, compactRun: 4 });
    await store.table('tracks').create(schema);
    // a float wandering the globe in time order: every delta of 500 rows spans most of it
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const N = 24_000;
    for (let b = 0; b < N; b += 500) {
      const rows = Array.from({ length: 500 }, (_, k) => ({ id: b + k, temp: 4, geom: `POINT (${(random() * 360 - 180).toFixed(4)} ${(random() * 170 - 85).toFixed(4)})` }));
      await store.table('tracks').insert(rows);
    }
    await store.close(); // waits for the background merges
    store = await openStore({ path: dir.path, workers: 0, partitionRows: 1000, compactRun: 4 });
    const ctx = (store as unknown as { ctx: StoreContext }).ctx;
    const snap = openSnapshot(ctx, 'tracks');
    try {
      const box = 'POLYGON ((10 10, 20 10, 20 20, 10 20, 10 10))';
      const read = candidates(snap, plan(snap.schema, 'tracks', `geom ~ "${box}"`)).length;
      expect(snap.parts.length).toBeGreaterThanOrEqual(24);
      // a 10°×10° box is 0.16% of the area: a handful of partitions, not all of them
      expect(read).toBeLessThanOrEqual(snap.parts.length * 0.25);
      const t = store.table('tracks');
      const all = await t.select(undefined, { cols: ['geom'] }).all();
      const inBox = all.filter((r) => {
        const [x, y] = (r.geom as string).slice(7, -1).split(' ').map(Number);
        return x! >= 10 && x! <= 20 && y! >= 10 && y! <= 20;
      }).length;
      expect(await t.select(`geom within "${box}"`).count()).toBe(inBox);
      expect(await t.select().count()).toBe(N);
    } finally {
      snap.release();
      await store.close();
    }
  } finally {
    await dir.remove();
  }
}, 60_000);
