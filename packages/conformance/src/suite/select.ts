// Select: iteration modes, projections, filters, bind variables (plain and typed), geospatial operators.
import type { TableApi } from '@halocline/engine';
import { describe, expect, it } from 'vitest';
import { filled, fixtureRows, ids, rejects } from './fixture.js';

const square = 'POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))';
const triangle = 'POLYGON((0 0, 10 0, 0 10, 0 0))';

export function selectSuite(open: () => Promise<TableApi>): void {
  describe('select', () => {
    it('iterates rows, pages, batches, data frames and all, in insertion order', async () => {
      const t = await filled(open);
      const all = await t.select().all();
      expect(all).toEqual(fixtureRows);
      const rows = [];
      for await (const r of t.select().rows()) rows.push(r);
      expect(rows).toEqual(fixtureRows);
      const pages = [];
      for await (const p of t.select().pages(4)) pages.push(p.length);
      expect(pages).toEqual([4, 2]);
      let n = 0;
      for await (const p of t.select().pages(0)) n += p.length;
      expect(n).toBe(6);
      let batchRows = 0;
      for await (const b of t.select().batches()) batchRows += b.numRows;
      expect(batchRows).toBe(6);
      let frameRows = 0;
      for await (const f of t.select().dataframes()) frameRows += f.numRows;
      expect(frameRows).toBe(6);
      expect(await t.select('depth > 100').count()).toBe(4);
    });

    it('projects cols in the requested order; an unknown column is an error', async () => {
      const t = await filled(open);
      expect((await t.select('id < 3', { cols: ['name', 'id'] }).all())).toEqual([{ name: 'a', id: 1 }, { name: 'b', id: 2 }]);
      await rejects('InvalidArgument', () => t.select(undefined, { cols: ['nope'] }).all());
    });

    it('filters: comparisons, and/or in both cases, =, arithmetic, parentheses, IS NULL, not', async () => {
      const t = await filled(open);
      expect(await ids(t, 'depth > 100 and temp < 5')).toEqual([3, 4, 6]);
      expect(await ids(t, 'depth > 100 AND temp < 5 OR id = 1')).toEqual([1, 3, 4, 6]);
      expect(await ids(t, '(depth + 50) * 2 >= 400 and not (name == "c")')).toEqual([2, 4, 6]);
      expect(await ids(t, "name == 'a'")).toEqual([1, 4]);
      expect(await ids(t, 'temp IS NOT NULL and flag')).toEqual([1, 3, 6]);
      expect(await ids(t, 'name is null')).toEqual([5]);
      expect(await ids(t, '1==1')).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('rejects a bad query with QuerySyntax / QueryType', async () => {
      const t = await filled(open);
      await rejects('QuerySyntax', () => t.select('depth >').all());
      await rejects('QueryType', () => t.select('nope > 1').all());
    });

    it('binds $name from an object and ? from a list, plain and typed, incl. {type: integer, value: true}', async () => {
      const t = await filled(open);
      expect(await ids(t, 'name == $n and depth > $d', { n: 'a', d: 100 })).toEqual([4]);
      expect(await ids(t, 'depth > ? and depth < ?', [100, 1000])).toEqual([2, 3]);
      expect(await ids(t, 'time >= $t', { t: { type: 'datetime', value: '2024-01-02T00:00:00Z' } })).toEqual([5, 6]);
      expect(await ids(t, 'flag == $f', { f: { type: 'integer', value: true } })).toEqual([1, 3, 6]);
      await rejects('QuerySyntax', () => t.select('depth > $missing', { vars: {} }).all());
    });

    it('geospatial: intersect, within, contains, ~ on WKT and lat/lon columns', async () => {
      const t = await filled(open);
      expect(await ids(t, `geom intersect "${square}"`)).toEqual([1, 3, 4, 6]);
      expect(await ids(t, `geom within "${square}"`)).toEqual([1, 6]);
      expect(await ids(t, 'geom contains "POINT(10 10)"')).toEqual([4]);
      const greedy = await ids(t, `geom ~ "${triangle}"`);
      expect(greedy).toEqual(expect.arrayContaining([1, 3, 6]));
      expect(await ids(t, `lat within $q`, { q: square })).toEqual([1, 6]);
      await rejects('QueryType', () => t.select('geom intersect "POLYGON((0 0, 1"').all());
    });
  });
}
