// Leases per account: one account cannot push another's transactions or cursors out of the shared map.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Leases } from './leases.js';

describe('Leases limits', () => {
  it('refuses an account at its limit with a 409 naming what; other accounts and freed slots are unaffected', () => {
    const expired: string[] = [];
    const l = new Leases<string>(60_000, (v) => expired.push(v), 10, { perOwner: 2, what: 'open transactions' });
    const a = l.add('a1', 'T', 'alice');
    const b1 = l.add('b1', 'T', 'bob');
    l.add('b2', 'T', 'bob');
    expect(() => l.add('b3', 'T', 'bob')).toThrow(expect.objectContaining({ status: 409, code: 'TooManyOpen', message: expect.stringContaining('2 open transactions') }));
    expect(l.get(a, 'T', 'alice')).toBe('a1');
    l.delete(b1);
    expect(typeof l.add('b3', 'T', 'bob')).toBe('string');
    expect(expired).toEqual([]);
    l.close();
  });

  it('with evictOwn, an account at its limit replaces its own oldest item, never another account’s', () => {
    const expired: string[] = [];
    const l = new Leases<string>(60_000, (v) => expired.push(v), 10, { perOwner: 2, evictOwn: true });
    const a = l.add('a1', 'T', 'alice');
    const b1 = l.add('b1', 'T', 'bob');
    l.add('b2', 'T', 'bob');
    l.add('b3', 'T', 'bob');
    expect(expired).toEqual(['b1']);
    expect(l.get(b1, 'T', 'bob')).toBe('expired');
    expect(l.get(a, 'T', 'alice')).toBe('a1');
    l.close();
  });

  it('still holds at most max items in all (the oldest expires)', () => {
    const expired: string[] = [];
    const l = new Leases<string>(60_000, (v) => expired.push(v), 2, { perOwner: 5 });
    l.add('x', 'T', 'alice');
    l.add('y', 'T', 'bob');
    l.add('z', 'T', 'carol');
    expect(expired).toEqual(['x']);
    l.close();
  });

  it('expireTable ends the items of one table (onExpire for each), which then answer "deleted"', () => {
    const expired: string[] = [];
    const l = new Leases<string>(60_000, (v) => expired.push(v), 10);
    const a = l.add('a', 'T', 'alice');
    const b = l.add('b', 'U', 'alice');
    const c = l.add('c', 'T', 'bob');
    l.expireTable('T');
    expect(expired).toEqual(['a', 'c']);
    expect(l.get(a, 'T', 'alice')).toBe('deleted');
    expect(l.get(c, 'T', 'bob')).toBe('deleted');
    expect(l.get(b, 'U', 'alice')).toBe('b');
    l.close();
  });
});

describe('Leases ids and expiry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes its ids from newId when given (v1 stages: UUIDs), else 32 hex digits', () => {
    let k = 0;
    const named = new Leases<string>(60_000, () => undefined, 10, { newId: () => `id-${k++}` });
    expect(named.add('a', 'T', 'alice')).toBe('id-0');
    expect(named.get('id-0', 'T', 'alice')).toBe('a');
    expect(new Leases<string>(60_000, () => undefined).add('a', 'T', 'alice')).toMatch(/^[0-9a-f]{32}$/);
    named.close();
  });

  it('expiresAt is the last use plus idleMs: a get pushes it back; held lists without touching', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const expired: string[] = [];
    const l = new Leases<string>(5_000, (v) => expired.push(v), 10);
    const a = l.add('a', 'T', 'alice');
    const b = l.add('b', 'T', 'alice');
    l.add('c', 'T', 'bob');
    l.add('d', 'U', 'alice');
    expect(l.expiresAt(a)).toBe(1_005_000);
    vi.advanceTimersByTime(3_000);
    expect(l.get(a, 'T', 'alice')).toBe('a');
    expect(l.expiresAt(a)).toBe(1_008_000);
    expect(l.held('T', 'alice')).toEqual([{ id: a, value: 'a', expires: 1_008_000 }, { id: b, value: 'b', expires: 1_005_000 }]);
    vi.advanceTimersByTime(2_000); // b, c and d reach their deadline; a was used
    expect(expired.sort()).toEqual(['b', 'c', 'd']);
    expect(l.held('T', 'alice').map((x) => x.id)).toEqual([a]);
    expect(l.expiresAt(b)).toBeUndefined();
    l.close();
  });
});
