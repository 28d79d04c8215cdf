// measurePair alternates the two sides and keeps warm-up runs out of the samples (no timing asserted).
import { describe, expect, it } from 'vitest';
import { measurePair } from './measure.js';

describe('measurePair', () => {
  it('runs a, b, a, b ... and reports runs samples for each side', async () => {
    const calls: string[] = [];
    const seen: [number, string][] = [];
    const [a, b] = await measurePair(async () => (calls.push('a'), 'A'), async () => (calls.push('b'), 'B'), { runs: 3, warmup: 1 }, (which, r) => seen.push([which, r]));
    expect(calls).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
    expect(seen.slice(0, 2)).toEqual([[0, 'A'], [1, 'B']]);
    expect([a.runs, b.runs]).toEqual([3, 3]);
  });
  it('runs each side\'s setup before it, untimed', async () => {
    const calls: string[] = [];
    await measurePair(async () => calls.push('a'), async () => calls.push('b'), { runs: 1, warmup: 1, setupOf: (which, run) => void calls.push(`${which}@${run}`) });
    expect(calls).toEqual(['0@-1', 'a', '1@-1', 'b', '0@0', 'a', '1@0', 'b']);
  });
});
