// W1C's rounds: idle and busy windows alternate, each round settles, a last idle window ends them;
// each round's slowdown is at the busy window's table size, the slowdown the median of the rounds';
// a writer's error ends the rounds (made-up samples, no timing measured).
import { describe, expect, it, vi } from 'vitest';
import { type BusyWindow, interleaved, paced } from './w1-concurrent.js';

describe('interleaved', () => {
  it('alternates idle and busy windows, ends with an idle one, pools their reads and takes the median of the rounds\' slowdowns', async () => {
    const calls: string[] = [];
    // the table does not grow (no commit adds rows); the machine drifts: round 2 runs at half speed
    const idle = [[10, 10, 12], [20, 20, 24], [10, 11, 10], [10, 10, 10]];
    const busy = [[12, 12, 13], [24, 26, 24], [20, 20, 20]];
    let r = 0;
    const out = await interleaved(
      3,
      async () => (calls.push(`idle ${r}`), idle[r]!),
      async (): Promise<BusyWindow> => (calls.push(`busy ${r}`), { result: busy[r]!, ms: 1000, before: 10, commits: 20, total: 35 }),
      async () => void calls.push(`settle ${r++}`),
      { rows: 1000, perCommit: 0 },
    );
    expect(calls).toEqual(['idle 0', 'busy 0', 'settle 0', 'idle 1', 'busy 1', 'settle 1', 'idle 2', 'busy 2', 'settle 2', 'idle 3']);
    // at one size, each busy median is set against the idle window before it
    expect(out.ratios).toEqual([1.2, 1.2, 2]);
    expect(out.raw).toEqual([1.2, 1.2, 2]);
    expect(out.slowdown).toBe(1.2); // not the pooled medians' 20 / 10 (the drift) nor the mean
    expect(out.idle).toEqual({ min: 10, median: 10, max: 24, runs: 12 });
    expect(out.busy.runs).toBe(9);
    expect([out.commits, out.ms, out.error]).toEqual([60, 3000, undefined]);
  });

  it('sets each busy window against the idle figure at its mean table size, between the idle windows around it', async () => {
    // a count takes 1 ms per 100 rows idle; each round's writer commits 10 rows before its busy
    // window, 20 in it and 30 in all, so the table grows 1000 -> 1300 -> 1600 rows
    const idle = [[10], [13], [16]];
    let r = 0;
    const out = await interleaved(
      2,
      async () => idle[r]!,
      // 10% slower than idle at the busy window's mean size: 1000 + 10 * (10 + 20 / 2) = 1200 rows, then 1500
      async (): Promise<BusyWindow> => ({ result: [r === 0 ? 13.2 : 16.5], ms: 1000, before: 10, commits: 20, total: 30 }),
      async () => void r++,
      { rows: 1000, perCommit: 10 },
    );
    expect(out.idleRows).toEqual([1000, 1300, 1600]);
    expect(out.busyRows).toEqual([1200, 1500]);
    expect(out.ratios.map((x) => x.toFixed(3))).toEqual(['1.100', '1.100']);
    // against the idle window before, the rows the writer added count as slowdown
    expect(out.raw.map((x) => x.toFixed(3))).toEqual(['1.320', '1.269']);
    expect(out.slowdown.toFixed(3)).toBe('1.100');
  });

  it('stops after the round in which the writer failed, and reports the error', async () => {
    let rounds = 0;
    let idles = 0;
    const out = await interleaved(
      3,
      async () => (idles++, [10]),
      async (): Promise<BusyWindow> => (++rounds === 2 ? { result: [30], ms: 5, before: 0, commits: 1, total: 1, error: 'Conflict: x' } : { result: [11], ms: 5, before: 0, commits: 3, total: 3 }),
      async () => undefined,
      { rows: 100, perCommit: 0 },
    );
    expect([rounds, idles]).toEqual([2, 3]);
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
