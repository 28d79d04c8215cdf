// Zone maps that prove every row of a partition matches: counts read no column, selects run no kernel.
import { Field, Float64, Int32, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { freshStore } from '../test-util/store.js';

const schema = new Schema([new Field('id', new Int32(), false), new Field('v', new Float64(), true)]);

describe('partitions the zone maps prove whole', () => {
  it('count without a scan and select without a kernel, deleted rows and NaN still respected', async () => {
    const store = await freshStore({ partitionRows: 100, compactRun: 1000 });
    const ctx = (store as unknown as { ctx: StoreContext }).ctx;
    const t = store.table('t');
    await t.create(schema);
    for (let i = 0; i < 4; i++) await t.insert(Array.from({ length: 100 }, (_, k) => ({ id: i * 100 + k, v: i * 100 + k })));
    await t.transaction(async (tx) => void (await tx.delete('id == 150 or id == 360')));
    const before = ctx.cache.bytesUsed; // the delete's match scan read ids
    expect(await t.select('v >= 100').count()).toBe(298);
    expect(await t.select('id < 400 and v > -1').count()).toBe(398);
    expect(ctx.cache.bytesUsed).toBe(before); // every candidate proven whole: no column was read
    expect(await t.select('v >= 150').count()).toBe(248); // straddles one partition: scanned
    expect(ctx.cache.bytesUsed).toBeGreaterThan(before);
    const ids = (await t.select('v >= 300', { cols: ['id'] }).all()).map((r) => r.id);
    expect(ids.length).toBe(99);
    expect(ids.includes(360)).toBe(false);
    // a NaN (not recorded in older zone maps, counted in new ones) makes the partition straddle again
    await t.insert([{ id: 500, v: Number.NaN }, { id: 501, v: 900 }, { id: 502, v: null }]);
    expect(await t.select('v >= 400').count()).toBe(1);
    expect(await t.select('v >= 0').count()).toBe(399);
  });
});

describe('scans that read through the cache', () => {
  it('compact the rows they own in place and leave cached chunks intact', async () => {
    // 4 partitions × 100 rows × 12 bytes: a select of every column with deletes counts twice (9.6 kB) and reads through
    const store = await freshStore({ partitionRows: 100, compactRun: 1000, cacheBytes: 6000 });
    const ctx = (store as unknown as { ctx: StoreContext }).ctx;
    const t = store.table('t');
    await t.create(schema);
    for (let i = 0; i < 4; i++) await t.insert(Array.from({ length: 100 }, (_, k) => ({ id: i * 100 + k, v: k % 7 === 0 ? null : i * 100 + k })));
    await t.transaction(async (tx) => void (await tx.delete('id % 3 == 0')));
    const live = Array.from({ length: 400 }, (_, id) => id).filter((id) => id % 3 !== 0);
    const expected = live.map((id) => ({ id, v: id % 100 % 7 === 0 ? null : id }));
    expect(await t.select('v > -1').count()).toBe(expected.filter((r) => r.v !== null).length); // caches v
    const cached = ctx.cache.bytesUsed;
    expect(cached).toBeGreaterThan(0);
    for (let pass = 0; pass < 2; pass++) {
      expect(await t.select().all()).toEqual(expected);
      expect(await t.select('id >= 150', { cols: ['v', 'id'] }).all()).toEqual(expected.filter((r) => r.id >= 150).map((r) => ({ v: r.v, id: r.id })));
    }
    expect(ctx.cache.bytesUsed).toBe(cached); // nothing more cached, and the cached v chunks still hold every row
    expect(await t.select('v > -1').count()).toBe(expected.filter((r) => r.v !== null).length);
  });
});


describe('scans larger than the cache', () => {
  it('count, delete and replace a window of partitions at a time, with the same answers', async () => {
    // 9 partitions × 100 rows: every scan's columns exceed the 2 kB cache, so none is cached
    const store = await freshStore({ partitionRows: 100, compactRun: 1000, cacheBytes: 2000 });
    const ctx = (store as unknown as { ctx: StoreContext }).ctx;
    const t = store.table('t');
    await t.create(schema);
    for (let i = 0; i < 9; i++) await t.insert(Array.from({ length: 100 }, (_, k) => ({ id: i * 100 + k, v: k % 7 === 0 ? null : (i * 100 + k) % 250 })));
    const rows = Array.from({ length: 900 }, (_, id) => ({ id, v: id % 100 % 7 === 0 ? null : id % 250 }));
    expect(await t.select('v >= 40 and v < 90').count()).toBe(rows.filter((r) => r.v !== null && r.v >= 40 && r.v < 90).length);
    await t.transaction(async (tx) => expect(await tx.delete('v < 20')).toBe(rows.filter((r) => r.v !== null && r.v < 20).length));
    await t.transaction(async (tx) => {
      for await (const b of tx.replace('v >= 200').batches()) await tx.insert(b);
    });
    const live = rows.filter((r) => !(r.v !== null && r.v < 20));
    expect((await t.select().all()).map((r) => r.id as number).sort((a, b) => a - b)).toEqual(live.map((r) => r.id));
    expect(await t.select('v >= 200').count()).toBe(live.filter((r) => r.v !== null && r.v >= 200).length);
    expect(ctx.cache.bytesUsed).toBe(0);
  });
});

describe('scans over many small partitions', () => {
  it('count and select right as deletes, cache evictions and a transaction’s own rows change what each partition holds', async () => {
    // 60 partitions of 50 rows; a cache that holds about half of their `v` columns, so a scan meets
    // partitions whose columns are in memory (tasks made at once) and partitions read back from files
    const store = await freshStore({ partitionRows: 1000, compactRun: 1000, cacheBytes: 60 * 50 * 8 * 0.5 });
    const t = store.table('t');
    await t.create(schema);
    const rows: { id: number; v: number | null }[] = [];
    for (let p = 0; p < 60; p++) {
      const part = Array.from({ length: 50 }, (_, k) => ({ id: p * 50 + k, v: k % 11 === 0 ? null : ((p * 50 + k) * 7919) % 1000 }));
      rows.push(...part);
      await t.insert(part);
    }
    const live = new Set(rows.map((r) => r.id));
    const expectCount = async (lo: number) => expect(await t.select(`v >= ${lo}`).count()).toBe(rows.filter((r) => live.has(r.id) && r.v !== null && r.v >= lo).length);
    for (let round = 0; round < 4; round++) {
      for (const lo of [0, 250, 500, 990, 2000]) await expectCount(lo);
      await expectCount(500); // the same query again: its plan (and each partition's pruning verdict) is reused
      const gone = rows.filter((r) => live.has(r.id) && r.id % 9 === round);
      await t.transaction(async (tx) => void (await tx.delete(`id % 9 == ${round}`)));
      for (const r of gone) live.delete(r.id);
      await expectCount(500);
    }
    const ids = (await t.select('v >= 900', { cols: ['id'] }).all()).map((r) => r.id as number);
    expect(ids).toEqual(rows.filter((r) => live.has(r.id) && r.v !== null && r.v >= 900).map((r) => r.id));
    await t.transaction(async (tx) => {
      await tx.insert([{ id: 5000, v: 999 }, { id: 5001, v: 1 }]);
      expect(await tx.select('v >= 990').count()).toBe(rows.filter((r) => live.has(r.id) && r.v !== null && r.v >= 990).length + 1);
    });
    await store.close();
  });
});
