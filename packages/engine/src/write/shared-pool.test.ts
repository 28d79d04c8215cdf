// The shared buffer pool: size classes, reuse after release, the byte cap, and release when idle.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { MIN_POOLED, SharedPool, sizeClass } from './shared-pool.js';

describe('sizeClass', () => {
  it('covers the request with at most a quarter more, and is its own class', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_POOLED, max: 2 ** 40 }), (n) => {
        const c = sizeClass(n);
        expect(c).toBeGreaterThanOrEqual(n);
        expect(c).toBeLessThan(n * 1.25 + 1);
        expect(sizeClass(c)).toBe(c);
      }),
    );
    expect(sizeClass(1)).toBe(MIN_POOLED);
    expect(sizeClass(8_000_000)).toBe(8_388_608); // 1M float64 values: 2^23, 5% over
  });
});

describe('SharedPool', () => {
  it('hands a released buffer to the next acquire of its class, never to two holders at once', () => {
    const pool = new SharedPool();
    const a = pool.acquire(8_000_000);
    const b = pool.acquire(8_000_000);
    expect(a).not.toBe(b);
    expect(a.byteLength).toBe(sizeClass(8_000_000));
    pool.release(a);
    expect(pool.bytesHeld).toBe(a.byteLength);
    expect(pool.acquire(7_900_000)).toBe(a); // same class
    expect(pool.bytesHeld).toBe(0);
    expect(pool.acquire(8_000_000)).not.toBe(a); // a is out again: a fresh one
    pool.release(a);
    pool.release(a); // twice by mistake: kept once
    expect(pool.bytesHeld).toBe(a.byteLength);
    expect(pool.acquire(2_000_000)).not.toBe(a); // another class
    pool.clear();
  });

  it('does not pool small buffers', () => {
    const pool = new SharedPool();
    const small = pool.acquire(1000);
    expect(small.byteLength).toBe(1000);
    pool.release(small);
    expect(pool.bytesHeld).toBe(0);
  });

  it('keeps at most maxBytes; what does not fit is left to the GC', () => {
    const pool = new SharedPool({ maxBytes: 3 * MIN_POOLED, idleMs: 60_000 });
    const got = [1, 2, 3, 4].map(() => pool.acquire(MIN_POOLED));
    for (const b of got) pool.release(b);
    expect(pool.bytesHeld).toBe(3 * MIN_POOLED);
    expect(got.slice(0, 3)).toContain(pool.acquire(MIN_POOLED));
    pool.clear();
    expect(pool.bytesHeld).toBe(0);
  });

  it('gives back every buffer of a lease once, at its release', () => {
    const pool = new SharedPool();
    const lease = pool.lease();
    const a = lease.alloc(MIN_POOLED);
    const b = lease.alloc(2 * MIN_POOLED);
    expect(a).not.toBe(b);
    expect(pool.bytesHeld).toBe(0);
    lease.release();
    expect(pool.bytesHeld).toBe(3 * MIN_POOLED);
    lease.release(); // nothing more to give back
    expect(pool.bytesHeld).toBe(3 * MIN_POOLED);
    expect(pool.lease().alloc(MIN_POOLED)).toBe(a);
  });

  it('drops its buffers once idle, not while in use', () => {
    // a fake clock: on a loaded machine a real 25 ms sleep can outlast the 40 ms idle limit
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const pool = new SharedPool({ maxBytes: 1 << 30, idleMs: 40 });
      const a = pool.acquire(MIN_POOLED);
      pool.release(a);
      vi.advanceTimersByTime(25);
      pool.release(pool.acquire(MIN_POOLED)); // used again: the idle clock restarts
      vi.advanceTimersByTime(25);
      expect(pool.bytesHeld).toBe(MIN_POOLED); // 50 ms since the first release, 25 since the last use
      vi.advanceTimersByTime(60);
      expect(pool.bytesHeld).toBe(0);
      expect(pool.acquire(MIN_POOLED)).not.toBe(a);
    } finally {
      vi.useRealTimers();
    }
  });
});
