import { Field, Float64, Schema, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { prepareFilter } from '../expr/index.js';
import type { PartRecord } from '../storage/records.js';
import { bboxColumn } from './bbox.js';
import { spatialPruner } from './rtree.js';

const schema = new Schema([
  new Field('geom', new Utf8(), true, new Map([['class', 'geometry']])),
  new Field('lat', new Float64(), true, new Map([['class', 'latitude']])),
  new Field('lon', new Float64(), true, new Map([['class', 'longitude']])),
  new Field('depth', new Float64(), true),
]);
const zone = (min: number, max: number) => ({ min, max, nullCount: 0, rows: 10 });
// partition i covers [10i, 10i + 5] in x and y, for the geometry boxes and for lat/lon
const part = (i: number): PartRecord => ({
  id: `p${i}`,
  rows: 10,
  zones: {
    [bboxColumn('geom', 'xmin')]: zone(10 * i, 10 * i + 4), [bboxColumn('geom', 'ymin')]: zone(10 * i, 10 * i + 4),
    [bboxColumn('geom', 'xmax')]: zone(10 * i + 1, 10 * i + 5), [bboxColumn('geom', 'ymax')]: zone(10 * i + 1, 10 * i + 5),
    lat: zone(10 * i, 10 * i + 5), lon: zone(10 * i, 10 * i + 5),
  },
}) as unknown as PartRecord;
const parts = Array.from({ length: 8 }, (_, i) => part(i));
const box = (x0: number, y0: number, x1: number, y1: number) => `POLYGON((${x0} ${y0}, ${x1} ${y0}, ${x1} ${y1}, ${x0} ${y1}, ${x0} ${y0}))`;
const kept = (q: string, vars?: Record<string, unknown>) => {
  const prune = spatialPruner(schema, prepareFilter(q, schema, vars).typed);
  return prune === null ? null : prune(parts).map((p) => p.id);
};

describe('spatialPruner', () => {
  it('keeps only the partitions whose bounds meet the query box', () => {
    expect(kept(`geom ~ "${box(21, 21, 33, 33)}"`)).toEqual(['p2', 'p3']);
    expect(kept(`geom intersect "${box(21, 21, 33, 33)}" and depth > 3`)).toEqual(['p2', 'p3']);
    expect(kept(`lat within "${box(40, 40, 41, 41)}"`)).toEqual(['p4']);
    expect(kept(`geom contains "POINT(71 71)"`)).toEqual(['p7']);
    expect(kept(`lon ~ "${box(6, 6, 9, 9)}"`)).toEqual([]);
  });

  it('does not prune what the top-level conjunction does not bound', () => {
    expect(kept('depth > 3')).toBeNull();
    expect(kept(`geom ~ "${box(21, 21, 33, 33)}" or depth > 3`)).toBeNull();
    expect(kept(`not (geom ~ "${box(21, 21, 33, 33)}")`)).toBeNull();
  });
});
