// The incremental index: after any sequence of puts and deletes it answers like a fresh index and like
// brute force (fast-check); observables and collections arriving in any order attach to their datasets.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxPolygon, collection, dataset, footprint, timeCoverage, uuid } from '../../test-util/catalog.js';
import { kindsOf } from '../kinds.js';
import { MemorySource } from '../memory-source.js';
import { parseSearchBody } from '../search/parse.js';
import { search } from '../search/execute.js';
import type { Resource } from '../source.js';
import { CatalogIndex } from './catalog-index.js';

const kinds = kindsOf('example.io');

describe('CatalogIndex', () => {
  it('attaches observables and collections whichever arrives first, and detaches them on delete', () => {
    const source = new MemorySource();
    const index = new CatalogIndex(source, kinds);
    source.put(footprint(1, 'dataset-1', boxPolygon(0, 0, 1, 1)));
    source.put(dataset(1, { collection: 'collection-1' }));
    expect(index.dataset(uuid(1))?.box).toEqual([0, 0, 1, 1]);
    expect(index.collectionOf(index.dataset(uuid(1))!)).toBeUndefined();
    source.put(collection(1));
    expect(index.collectionOf(index.dataset(uuid(1))!)).toBe(uuid(1, 2));
    expect(index.members(uuid(1, 2)).map((e) => e.uuid)).toEqual([uuid(1)]);
    source.delete(uuid(1, 3));
    expect(index.dataset(uuid(1))?.box).toBeUndefined();
    expect(index.spatial([-10, -10, 10, 10])).toEqual([]);
    source.delete(uuid(1));
    expect(index.ordered).toEqual([]);
    expect(index.members(uuid(1, 2))).toEqual([]);
    index.close();
    source.put(dataset(2));
    expect(index.ordered).toEqual([]);
  });

  it('ignores other kinds and other domains, and malformed observables', () => {
    const index = new CatalogIndex(new MemorySource([
      { ...dataset(1), kind: 'catalog.other.io/dataset' },
      dataset(2),
      { ...footprint(2, 'dataset-2', { type: 'Polygon', coordinates: 'nope' }) },
      { ...timeCoverage(2, 'dataset-2', 'not a time', '2020-01-01T00:00:00Z') },
    ]), kinds);
    expect(index.ordered.map((e) => e.uuid)).toEqual([uuid(2)]);
    expect(index.dataset(uuid(2))?.geometry).toBeNull();
    expect(index.dataset(uuid(2))?.coverage).toBeUndefined();
  });

  it('answers like a fresh index and like brute force after any changes', () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant('dataset' as const), n: fc.integer({ min: 0, max: 15 }), c: fc.integer({ min: 0, max: 3 }), created: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ t: fc.constant('footprint' as const), n: fc.integer({ min: 0, max: 15 }), x: fc.integer({ min: -180, max: 170 }), y: fc.integer({ min: -90, max: 80 }), s: fc.integer({ min: 0, max: 10 }) }),
      fc.record({ t: fc.constant('time' as const), n: fc.integer({ min: 0, max: 15 }), y: fc.integer({ min: 2000, max: 2020 }), len: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ t: fc.constant('collection' as const), n: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ t: fc.constant('delete' as const), n: fc.integer({ min: 0, max: 15 }), tag: fc.integer({ min: 1, max: 4 }) }),
    );
    const query = fc.record({
      bbox: fc.option(fc.tuple(fc.integer({ min: -180, max: 180 }), fc.integer({ min: -90, max: 0 }), fc.integer({ min: -180, max: 180 }), fc.integer({ min: 0, max: 90 }))),
      year: fc.option(fc.integer({ min: 1999, max: 2025 })),
      collection: fc.option(fc.integer({ min: 0, max: 3 })),
    });
    fc.assert(fc.property(fc.array(op, { maxLength: 60 }), fc.array(query, { minLength: 1, maxLength: 5 }), (ops, queries) => {
      const source = new MemorySource();
      const index = new CatalogIndex(source, kinds);
      for (const o of ops) {
        const r = resourceOf(o);
        if (r) source.put(r);
        else if (o.t === 'delete') source.delete(uuid(o.n, o.tag));
      }
      const fresh = new CatalogIndex(new MemorySource(source.all()), kinds);
      for (const q of queries) {
        const body = {
          limit: 10000,
          ...(q.bbox ? { bbox: q.bbox } : {}),
          ...(q.year !== null ? { datetime: `${q.year}-01-01T00:00:00Z/${q.year}-12-31T23:59:59Z` } : {}),
          ...(q.collection !== null ? { collections: [uuid(q.collection, 2)] } : {}),
        };
        const req = parseSearchBody(body);
        const got = search(index, req).items.map((e) => e.uuid);
        expect(got).toEqual(search(fresh, req).items.map((e) => e.uuid));
        const start = q.year === null ? -Infinity : Date.UTC(q.year, 0, 1);
        const end = q.year === null ? Infinity : Date.UTC(q.year, 11, 31, 23, 59, 59);
        const brute = fresh.ordered.filter((e) => {
          if (q.collection !== null && fresh.collectionOf(e) !== uuid(q.collection, 2)) return false;
          if (e.start > end || e.end < start) return false;
          if (!q.bbox) return true;
          if (!e.box) return false;
          const [w, s, ea, n] = q.bbox;
          const xs = w <= ea ? [[w, ea]] : [[w, 180], [-180, ea]];
          return e.box[1] <= n && e.box[3] >= s && xs.some(([a, b]) => e.box![0] <= b! && e.box![2] >= a!);
        }).map((e) => e.uuid);
        expect(got).toEqual(brute);
      }
    }), { numRuns: 150 });
  });
});

type Op = { t: 'dataset'; n: number; c: number; created: number } | { t: 'footprint'; n: number; x: number; y: number; s: number }
  | { t: 'time'; n: number; y: number; len: number } | { t: 'collection'; n: number } | { t: 'delete'; n: number; tag: number };

function resourceOf(o: Op): Resource | undefined {
  switch (o.t) {
    case 'dataset': return dataset(o.n, { collection: `collection-${o.c}`, created: Date.UTC(2024, 0, 1) + o.created * 1000 });
    case 'footprint': return footprint(o.n, `dataset-${o.n}`, o.s === 0 ? { type: 'Point', coordinates: [o.x, o.y] } : boxPolygon(o.x, o.y, o.x + o.s, o.y + o.s));
    case 'time': return timeCoverage(o.n, `dataset-${o.n}`, `${o.y}-03-01T00:00:00Z`, `${o.y + o.len}-03-01T00:00:00Z`);
    case 'collection': return collection(o.n);
    case 'delete': return undefined;
  }
}
