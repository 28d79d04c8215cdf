import { Float64, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ColumnCache } from './cache.js';

const entry = (bytes: number) => ({ data: vectorFromArray([1], new Float64()).data[0]!, bytes });

describe('ColumnCache', () => {
  it('evicts least recently used entries to stay within its budget', () => {
    const c = new ColumnCache(100);
    c.put('p1/a', entry(40));
    c.put('p1/b', entry(40));
    c.get('p1/a'); // a is now the most recent
    c.put('p2/a', entry(40));
    expect(c.get('p1/b')).toBeUndefined();
    expect(c.get('p1/a')).toBeDefined();
    expect(c.bytesUsed).toBe(80);
    c.put('huge', entry(101)); // larger than the whole budget: not kept
    expect(c.get('huge')).toBeUndefined();
    c.dropPart('p1');
    expect(c.get('p1/a')).toBeUndefined();
    expect(c.bytesUsed).toBe(40);
  });

  it('has tells what is cached without counting as a use', () => {
    const c = new ColumnCache(100);
    c.put('p1/a', entry(40));
    c.put('p1/b', entry(40));
    expect(c.has('p1/a')).toBe(true); // not a use: a stays the least recent
    expect(c.has('p1/c')).toBe(false);
    c.put('p2/a', entry(40));
    expect(c.has('p1/a')).toBe(false);
    expect(c.has('p1/b')).toBe(true);
  });

  it('charges memory attached to an entry to its budget, and only to the entry holding that data', () => {
    const c = new ColumnCache(100);
    const a = entry(40);
    c.put('p1/a', a);
    c.put('p1/b', entry(40));
    c.charge('p1/a', entry(1).data, 10); // another chunk under the same key: not charged
    expect(c.bytesUsed).toBe(80);
    c.charge('p1/x', a.data, 10); // not cached: nothing
    expect(c.bytesUsed).toBe(80);
    c.charge('p1/b', c.get('p1/b')!.data, 10);
    expect(c.bytesUsed).toBe(90);
    c.charge('p1/a', a.data, 20); // over budget: the least recent (a itself) goes, with its charge
    expect(c.has('p1/a')).toBe(false);
    expect(c.bytesUsed).toBe(50);
    c.dropPart('p1');
    expect(c.bytesUsed).toBe(0);
  });

  it('knows the cached columns of each partition after any puts, uses, charges, evictions and drops', () => {
    const parts = ['p1', 'p2', 'p3'];
    const names = ['a', 'b', 'c/d']; // a column name may hold '/': the partition is what precedes the first one
    const op = fc.oneof(
      fc.record({ kind: fc.constant('put'), part: fc.constantFrom(...parts), name: fc.constantFrom(...names), bytes: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('get'), part: fc.constantFrom(...parts), name: fc.constantFrom(...names) }),
      fc.record({ kind: fc.constant('charge'), part: fc.constantFrom(...parts), name: fc.constantFrom(...names), bytes: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('drop'), part: fc.constantFrom(...parts) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const c = new ColumnCache(100);
        for (const o of ops) {
          const key = `${o.part}/${'name' in o ? o.name : ''}`;
          if (o.kind === 'put') c.put(key, entry(o.bytes));
          else if (o.kind === 'get') c.get(key);
          else if (o.kind === 'charge') c.charge(key, c.get(key)?.data ?? entry(1).data, o.bytes);
          else c.dropPart(o.part);
          for (const p of parts) {
            const held = names.filter((n) => c.has(`${p}/${n}`));
            expect(c.columnsOf(p).sort()).toEqual(held);
            expect([...c.namesOf(p)].sort()).toEqual(held);
          }
        }
      }),
    );
  });
});
