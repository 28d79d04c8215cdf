// Filters narrowed by the R-trees return exactly what the filter alone selects (fast-check, seeded catalog).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededCatalog } from '../../test-util/catalog.js';
import { compileFilter } from '../cql2/compile.js';
import { parseCql2Text } from '../cql2/text.js';
import { CatalogIndex } from '../index/catalog-index.js';
import { kindsOf } from '../kinds.js';
import { MemorySource } from '../memory-source.js';
import { search } from './execute.js';
import { filterHints } from './hints.js';
import { parseSearchBody } from './parse.js';

const index = new CatalogIndex(new MemorySource(seededCatalog(400, 4, 3)), kindsOf('example.io'));

describe('filter hints', () => {
  it('finds boxes and time ranges in top-level conjuncts only', () => {
    const h = filterHints(parseCql2Text("S_WITHIN(geometry, BBOX(0,0,10,10)) AND T_DURING(INTERVAL('2020-01-01', '..'), datetime) AND title = 'x'"));
    expect(h.boxes).toEqual([[0, 0, 10, 10]]);
    expect(h.times).toEqual([[Date.UTC(2020, 0, 1), Infinity]]);
    expect(filterHints(parseCql2Text('S_DISJOINT(geometry, POINT(1 1)) OR S_INTERSECTS(geometry, POINT(1 1))'))).toEqual({ boxes: [], times: [] });
    expect(filterHints(parseCql2Text("T_BEFORE(datetime, TIMESTAMP('2020-01-01T00:00:00Z'))")).times).toEqual([]);
  });

  it('never changes the result of a search', () => {
    const x = fc.integer({ min: -180, max: 150 });
    const y = fc.integer({ min: -90, max: 60 });
    const year = fc.integer({ min: 1999, max: 2025 });
    const fn = fc.constantFrom('S_INTERSECTS', 'S_WITHIN', 'S_CONTAINS', 'S_DISJOINT', 'S_OVERLAPS');
    const tfn = fc.constantFrom('T_INTERSECTS', 'T_DURING', 'T_BEFORE', 'T_AFTER', 'T_CONTAINS');
    fc.assert(fc.property(fn, x, y, fc.integer({ min: 1, max: 60 }), tfn, year, fc.boolean(), (s, w, south, size, t, yr, both) => {
      const spatial = `${s}(geometry, BBOX(${w}, ${south}, ${w + size}, ${Math.min(90, south + size)}))`;
      const temporal = `${t}(datetime, INTERVAL('${yr}-01-01', '${yr + 1}-06-30'))`;
      const text = both ? `${spatial} AND ${temporal}` : spatial;
      const got = search(index, parseSearchBody({ filter: text, limit: 10000 })).items.map((e) => e.uuid);
      const keep = compileFilter(parseCql2Text(text), index);
      expect(got).toEqual(index.ordered.filter((e) => keep(e) === true).map((e) => e.uuid));
    }), { numRuns: 60 });
  });
});
