// Column sketches made by range scans of a store: what they cost counts in the column cache's budget.
import { type Data, Field, Float64, Schema, tableFromArrays } from 'apache-arrow';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { SKETCH_MIN_ROWS, sketchBytes } from '../exec/sketch.js';
import { freshStore } from '../test-util/store.js';
import { chunkSketch } from './execute.js';

describe('column sketches in the cache', () => {
  it('are charged to the chunk they belong to, built on a worker off the query path, and counts and deletes through them match the values', async () => {
    const rows = SKETCH_MIN_ROWS + 5;
    const store = await freshStore({ partitionRows: rows, inlineRows: 1 });
    try {
      const t = store.table('obs');
      await t.create(new Schema([new Field('depth', new Float64(), false)]));
      const depth = Float64Array.from({ length: rows }, (_, i) => (i * 7919) % 6000);
      await t.insert(tableFromArrays({ depth }));
      const ctx = (store as unknown as { ctx: StoreContext }).ctx;
      const band = (a: number, b: number) => depth.filter((d) => d >= a && d < b).length;
      const count = () => t.select('depth >= 60 and depth < 120').count();
      expect(await t.select('depth >= 0 and depth < 3000').count()).toBe(band(0, 3000)); // wide: loads the column, makes no sketch
      const before = ctx.cache.bytesUsed;
      expect(await count()).toBe(band(60, 120)); // first narrow range: the sketch is made, its build scheduled on the worker
      const entries = [...(ctx.cache as unknown as { entries: Map<string, { data: Data }> }).entries.values()];
      expect(entries).toHaveLength(1); // the partition's depth
      const sketch = chunkSketch(entries[0]!.data)!;
      expect(ctx.cache.bytesUsed).toBe(before + sketchBytes(sketch));
      expect(await count()).toBe(band(60, 120));
      for (let i = 0; i < 200 && Atomics.load(sketch.state, 0) !== 2; i++) await sleep(10);
      expect(Atomics.load(sketch.state, 0)).toBe(2); // built on the worker
      for (let i = 0; i < 3; i++) expect(await count()).toBe(band(60, 120));
      expect(await t.transaction((tx) => tx.delete('depth >= 60 and depth < 90'))).toBe(band(60, 90));
      expect(await count()).toBe(band(90, 120));
      expect(await t.select('depth >= 0 and depth < 3000').count()).toBe(band(0, 3000) - band(60, 90)); // a wide count: the values
      expect(ctx.cache.bytesUsed).toBe(before + sketchBytes(sketch));
    } finally {
      await store.close();
    }
  });
});
