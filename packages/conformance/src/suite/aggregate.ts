// Aggregate: groups by column and expression, aggr from options and metadata, buckets, h3 cells, partials.
import type { TableApi } from '@halocline/engine';
import { describe, expect, it } from 'vitest';
import { filled } from './fixture.js';

const rowsOf = (t: { toArray(): unknown[] }) => t.toArray().map((r) => ({ ...(r as { toJSON(): object }).toJSON() }));

export function aggregateSuite(open: () => Promise<TableApi>): void {
  describe('aggregate', () => {
    it('groups by a column with explicit aggr and with the aggr metadata; row count in *', async () => {
      const t = await filled(open);
      const byName = rowsOf(await t.aggregate('name', { aggr: { depth: 'sum', temp: 'max' } }));
      expect(byName).toEqual([
        { name: 'a', depth: 1210, temp: 20, '*': 2 },
        { name: 'b', depth: 3150, temp: 8, '*': 2 },
        { name: 'c', depth: 600, temp: 4, '*': 1 },
        { name: null, depth: 50, temp: null, '*': 1 },
      ]);
      const meta = rowsOf(await t.aggregate('flag', { query: 'depth < 2000' }));
      expect(meta).toEqual([
        { flag: false, temp: 8, '*': 2 },
        { flag: true, temp: 12, '*': 2 },
        { flag: null, temp: 3, '*': 1 },
      ]);
    });

    it('groups by a comparison, by buckets (bucket and buckets), and by h3 cells as strings', async () => {
      const t = await filled(open);
      expect(rowsOf(await t.aggregate('depth > 100', { aggr: { depth: 'count' } }))).toEqual([
        { 'depth > 100': false, depth: 2, '*': 2 },
        { 'depth > 100': true, depth: 4, '*': 4 },
      ]);
      const buckets = rowsOf(await t.aggregate('buckets(depth, 100, 1000)'));
      expect(buckets.map((r) => r['*' as never])).toEqual([2, 4]); // 10, 50 | 10, 50, 150, 600 (1200 and 3000 exceed every bound)
      expect(rowsOf(await t.aggregate('bucket(depth, 100, 1000)')).map((r) => Object.values(r))).toEqual(buckets.map((r) => Object.values(r)));
      const cells = rowsOf(await t.aggregate('h3(lat, lon, 3)'));
      for (const c of cells) {
        const key = (c as Record<string, unknown>)['h3(lat, lon, 3)'];
        if (key !== null) expect(key).toMatch(/^[0-9a-f]{15}$/);
      }
    });

    it('refuses a key and an aggregate of one name (one would hide the other); "(depth)" keeps both', async () => {
      const t = await filled(open);
      await expect(t.aggregate('depth', { aggr: { depth: 'count' } })).rejects.toMatchObject({ code: 'InvalidArgument', message: expect.stringContaining('group by "(depth)"') });
      const both = rowsOf(await t.aggregate('(depth) > 100', { aggr: { depth: 'count' } }));
      expect(both).toEqual([{ '(depth) > 100': false, depth: 2, '*': 2 }, { '(depth) > 100': true, depth: 4, '*': 4 }]);
      // the partials have no such clash
      expect((await t.aggregatePartials('depth', { aggr: { depth: 'count' } })).schema.fields.map((f) => f.name)).toEqual(['', 'depth_sum', 'depth_count', 'depth_min', 'depth_max', '*']);
    });

    it('partials: key column "", <f>_sum/_count/_min/_max and *', async () => {
      const t = await filled(open);
      const p = await t.aggregatePartials('name', { aggr: { depth: 'avg' } });
      expect(p.schema.fields.map((f) => f.name)).toEqual(['', 'depth_sum', 'depth_count', 'depth_min', 'depth_max', '*']);
      expect(rowsOf(p)[0]).toEqual({ '': 'a', depth_sum: 1210, depth_count: 2, depth_min: 10, depth_max: 1200, '*': 2 });
    });
  });
}
