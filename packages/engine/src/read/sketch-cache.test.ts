// Column sketches made by range scans of a store: what they cost counts in the column cache's budget.
import { Field, Float64, Schema, tableFromArrays } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { SKETCH_MIN_ROWS } from '../exec/sketch.js';
import { freshStore } from '../test-util/store.js';

describe('column sketches in the cache', () => {
  it('are charged to the chunk they belong to, and counts through them match the values', async () => {
    const rows = SKETCH_MIN_ROWS + 5;
    const store = await freshStore({ partitionRows: rows, inlineRows: 1 });
    const t = store.table('obs');
    await t.create(new Schema([new Field('depth', new Float64(), false)]));
    const depth = Float64Array.from({ length: rows }, (_, i) => (i * 7919) % 6000);
    await t.insert(tableFromArrays({ depth }));
    const ctx = (store as unknown as { ctx: StoreContext }).ctx;
    const expected = depth.filter((d) => d >= 60 && d < 120).length;
    const count = () => t.select('depth >= 60 and depth < 120').count();
    expect(await t.select('depth >= 0 and depth < 3000').count()).toBe(depth.filter((d) => d < 3000).length); // wide: loads the column, makes no sketch
    const before = ctx.cache.bytesUsed;
    expect(await count()).toBe(expected); // first narrow range: the sketch is made (built by the next)
    const sketch = 2 * ((rows + 1) & ~1);
    expect(ctx.cache.bytesUsed).toBe(before + sketch);
    for (let i = 0; i < 3; i++) expect(await count()).toBe(expected); // built, then read
    expect(ctx.cache.bytesUsed).toBe(before + sketch);
  });
});
