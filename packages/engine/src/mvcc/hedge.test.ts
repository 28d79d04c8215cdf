// The race of two writes: the first to finish with a result serves, in any completion order.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { first, settledWithin } from './hedge.js';

describe('first', () => {
  it('resolves with the first result by completion order, null only when both failed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(fc.option(fc.string(), { nil: null }), fc.option(fc.string(), { nil: null })), fc.boolean(), async ([ra, rb], aFirst) => {
        let endA = () => {};
        let endB = () => {};
        const a = new Promise<string | null>((r) => (endA = () => r(ra)));
        const b = new Promise<string | null>((r) => (endB = () => r(rb)));
        const won = first(a, b);
        const order = aFirst ? [endA, endB] : [endB, endA];
        for (const end of order) {
          end();
          await new Promise((r) => setImmediate(r));
        }
        const byCompletion = aFirst ? [ra, rb] : [rb, ra];
        expect(await won).toBe(byCompletion.find((x) => x !== null) ?? null);
      }),
    );
  });
});

describe('settledWithin', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves when the promise settles first, resolved or rejected, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    for (const outcome of ['resolve', 'reject'] as const) {
      let end = () => {};
      const p = new Promise<void>((resolve, reject) => (end = outcome === 'resolve' ? resolve : () => reject(new Error('failed'))));
      p.catch(() => undefined);
      let done = false;
      void settledWithin(p, 1000).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(10);
      expect(done).toBe(false);
      end();
      await vi.advanceTimersByTimeAsync(0);
      expect(done).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    }
  });

  it('resolves after the time when the promise has not settled, and at once for no time', async () => {
    vi.useFakeTimers();
    let done = false;
    void settledWithin(new Promise(() => undefined), 50).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(49);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    let now = false;
    void settledWithin(new Promise(() => undefined), 0).then(() => (now = true));
    await Promise.resolve();
    expect(now).toBe(true);
  });
});
