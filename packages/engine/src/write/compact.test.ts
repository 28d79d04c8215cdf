import { describe, expect, it } from 'vitest';
import type { PartRecord } from '../storage/records.js';
import { pickRun } from './compact.js';

const part = (seq: number, rows: number) => ({ id: `p${seq}`, seq, rows }) as PartRecord;

describe('pickRun', () => {
  it('merges only contiguous runs of small partitions, up to the target', () => {
    const parts = [part(0, 1000), part(1, 10), part(2, 10), part(3, 900), part(4, 10), part(5, 10), part(6, 10), part(7, 10)];
    expect(pickRun(parts, 1000, 4).map((p) => p.seq)).toEqual([4, 5, 6, 7]);
    expect(pickRun(parts, 1000, 2).map((p) => p.seq)).toEqual([1, 2]);
    expect(pickRun(parts.slice(0, 4), 1000, 4)).toEqual([]);
    const many = Array.from({ length: 10 }, (_, i) => part(i, 200));
    expect(pickRun(many, 1000, 4).map((p) => p.seq)).toEqual([0, 1, 2, 3, 4]);
  });
});
