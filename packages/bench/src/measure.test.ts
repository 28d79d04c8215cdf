// measure and measurePair: forced GCs, alternation, warm-up runs kept out of the samples (no timing asserted).
import { describe, expect, it } from 'vitest';
import { measure, measurePair } from './measure.js';

describe('measurePair', () => {
  it('runs a, b, a, b ... and reports runs samples for each side', async () => {
    const calls: string[] = [];
    const seen: [number, string][] = [];
    const [a, b] = await measurePair(async () => (calls.push('a'), 'A'), async () => (calls.push('b'), 'B'), { runs: 3, warmup: 1 }, (which, r) => seen.push([which, r]));
    expect(calls).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
    expect(seen.slice(0, 2)).toEqual([[0, 'A'], [1, 'B']]);
    expect([a.runs, b.runs]).toEqual([3, 3]);
  });
});

describe('measure', () => {
  it('forces a full GC before each run unless forceGc is false', async () => {
    const g = globalThis as { gc?: () => void };
    const saved = g.gc;
    let collections = 0;
    g.gc = () => void collections++;
    try {
      await measure(async () => 1, { runs: 2, warmup: 1 });
      expect(collections).toBe(3);
      collections = 0;
      await measure(async () => 1, { runs: 2, warmup: 1, forceGc: false });
      expect(collections).toBe(0);
    } finally {
      g.gc = saved;
    }
  });
});
