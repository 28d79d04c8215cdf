// W1C's rounds: idle and busy windows alternate, each round settles, the slowdown is the median of
// the rounds' own; a writer's error ends the rounds (made-up samples, no timing measured).
import { describe, expect, it, vi } from 'vitest';
import { type BusyWindow, interleaved, paced } from './w1-concurrent.js';

describe('interleaved', () => {
  it('alternates idle and busy windows, pools their reads and takes the median of the rounds\' slowdowns', async () => {
    const calls: string[] = [];
    // the machine drifts: round 2 runs at half speed, idle and busy alike
    const idle = [[10, 10, 12], [20, 20, 24], [10, 11, 10]];
    const busy = [[12, 12, 13], [24, 26, 24], [20, 20, 20]];
    let r = 0;
    const out = await interleaved(
      3,
      async () => (calls.push(`idle ${r}`), idle[r]!),
      async (): Promise<BusyWindow> => (calls.push(`busy ${r}`), { result: busy[r]!, ms: 1000, commits: 20 }),
      async () => void calls.push(`settle ${r++}`),
    );
    expect(calls).toEqual(['idle 0', 'busy 0', 'settle 0', 'idle 1', 'busy 1', 'settle 1', 'idle 2', 'busy 2', 'settle 2']);
    expect(out.ratios).toEqual([1.2, 1.2, 2]);
    expect(out.slowdown).toBe(1.2); // not the pooled medians' 20 / 11 (the drift) nor the mean
    expect(out.idle).toEqual({ min: 10, median: 11, max: 24, runs: 9 });
    expect(out.busy.runs).toBe(9);
    expect([out.commits, out.ms, out.error]).toEqual([60, 3000, undefined]);
  });

  it('stops after the round in which the writer failed, and reports the error', async () => {
    let rounds = 0;
    const out = await interleaved(
      3,
      async () => [10],
      async (): Promise<BusyWindow> => (++rounds === 2 ? { result: [30], ms: 5, commits: 1, error: 'Conflict: x' } : { result: [11], ms: 5, commits: 3 }),
      async () => undefined,
    );
    expect(rounds).toBe(2);
    expect(out.error).toBe('Conflict: x');
    expect(out.ratios).toEqual([1.1, 3]);
    expect(out.commits).toBe(4);
  });
});

describe('paced', () => {
  it('waits out the rest of each call\'s slot, and not after a call that overran it', async () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const waits: number[] = [];
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms: number) => {
      waits.push(ms);
      now += ms;
      fn();
      return 0;
    }) as never);
    try {
      const work = [5, 30, 12];
      let k = 0;
      const call = paced(async () => void (now += work[k++]!), 50); // 20 ms slots
      for (let i = 0; i < 3; i++) await call();
      expect(waits).toEqual([15, 8]);
      expect(now).toBe(70); // 5 + 15, 30, 12 + 8
    } finally {
      vi.restoreAllMocks();
    }
  });
});
