// Background work waits for a pause in scan tasks, but not forever.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReadActivity } from './activity.js';

describe('read activity', () => {
  it('lets background work through when reads pause, and after the longest wait while they do not', async () => {
    const reads = new ReadActivity();
    await reads.quiet(5, 10_000); // nothing ran: immediately
    const end = reads.begin();
    expect(reads.busy(5)).toBe(true);
    const order: string[] = [];
    const waiting = reads.quiet(5, 10_000).then(() => order.push('background'));
    await new Promise((r) => setTimeout(r, 30));
    order.push('read ends');
    end();
    end(); // twice is once
    await waiting;
    expect(order).toEqual(['read ends', 'background']);
    expect(reads.busy(10_000)).toBe(true); // ended just now
    const stuck = reads.begin();
    await reads.quiet(5, 20); // a read that never ends delays it by at most maxMs
    stuck();
  });

  describe('on a simulated clock', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('under reads back to back waits for its deadline without waking in between', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const reads = new ReadActivity();
      let woken = 0;
      const setTimeout = globalThis.setTimeout;
      vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => setTimeout(() => (woken++, fn()), ms)) as typeof globalThis.setTimeout);
      let done = false;
      let end = reads.begin();
      void reads.quiet(10, 1000).then(() => (done = true));
      // reads of 12 ms, each begun 0.1 ms after the last ended, for 2 s
      for (let t = 0; t < 2000 && !done; t += 12.1) {
        await vi.advanceTimersByTimeAsync(12);
        end();
        await vi.advanceTimersByTimeAsync(0.1);
        end = reads.begin();
      }
      end();
      expect(done).toBe(true);
      expect(woken).toBe(1); // the deadline's timer, nothing else fired
    });

    it('wakes each waiter once the reads have paused for its quiet period; a read begun in the pause restarts it', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const reads = new ReadActivity();
      const order: string[] = [];
      let end = reads.begin();
      void reads.quiet(10, 10_000).then(() => order.push('short'));
      void reads.quiet(30, 10_000).then(() => order.push('long'));
      end();
      await vi.advanceTimersByTimeAsync(5);
      end = reads.begin(); // the pause was too short
      await vi.advanceTimersByTimeAsync(50);
      expect(order).toEqual([]);
      end();
      await vi.advanceTimersByTimeAsync(9);
      expect(order).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(order).toEqual(['short']);
      await vi.advanceTimersByTimeAsync(20);
      expect(order).toEqual(['short', 'long']);
      expect(reads.busy(30)).toBe(false);
    });
  });
});
