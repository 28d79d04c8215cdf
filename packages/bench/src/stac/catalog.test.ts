// The STAC bench catalog is seeded and its baseline rows describe exactly the manifests' footprints and times.
import { describe, expect, it } from 'vitest';
import { benchCatalog, benchQueries } from './catalog.js';

describe('benchCatalog', () => {
  it('is deterministic and its rows match the observables', () => {
    const a = benchCatalog(50, 5, 7);
    expect(benchCatalog(50, 5, 7)).toEqual(a);
    expect(a.resources).toHaveLength(5 + 50 * 3);
    const row = a.rows[3]!;
    const footprint = a.resources.find((r) => r.metadata.name === 'dataset-3-footprint')!;
    const ring = (footprint.spec['details'] as { value: { coordinates: number[][][] } }).value.coordinates[0]!;
    expect([ring[0]![0], ring[0]![1], ring[2]![0], ring[2]![1]]).toEqual([...row.box]);
    const time = a.resources.find((r) => r.metadata.name === 'dataset-3-time')!;
    expect((time.spec['details'] as { value: string[] }).value.map((s) => Date.parse(s))).toEqual([row.start, row.end]);
    for (const r of a.rows) expect(r.box[2] <= 180 && r.box[3] <= 90 && r.start <= r.end).toBe(true);
  });
  it('makes valid queries', () => {
    for (const q of benchQueries(100, 1)) {
      expect(q.bbox[0]).toBeGreaterThanOrEqual(-180);
      expect(q.bbox[2]).toBeLessThanOrEqual(180);
      expect(q.bbox[3]).toBeLessThanOrEqual(90);
      expect(q.start).toBeLessThan(q.end);
    }
  });
});
