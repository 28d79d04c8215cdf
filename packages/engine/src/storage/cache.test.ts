import { Float64, vectorFromArray } from 'apache-arrow';
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
});
