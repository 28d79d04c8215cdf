import fc from 'fast-check';
import { Float64, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { concatData } from '../storage/concat.js';
import { zoneStats } from '../storage/zonemap.js';
import type { PartRecord } from '../storage/records.js';
import { mergedZones, pickRun } from './compact.js';

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

  it('merges partitions of similar size: a tail of equal deltas is rewritten a few times, not with every merge', () => {
    // 1000 deltas of 10 rows, compacted to a fixpoint after each append (partitionRows 2560: small < 640)
    const { parts, rewritten } = appendAndCompact(Array.from({ length: 1000 }, () => 10), 2560, 4);
    // 10 → 40 → 160 → 640 (no longer small): each row rewritten about 3 times; the old rule (re-merge
    // the growing tail with every 3 new deltas until it holds 640 rows) rewrote each row 11 times
    expect(rewritten / 10_000).toBeLessThan(4);
    expect(parts.filter((n) => n < 640).length).toBeLessThan(3 * 3);
  });

  it('leaves no run of 2 × compactRun small partitions behind, whatever their sizes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 120 }), fc.integer({ min: 2, max: 5 }), (sizes, compactRun) => {
        const { parts } = appendAndCompact(sizes, 1000, compactRun);
        expect(parts.reduce((a, b) => a + b, 0)).toBe(sizes.reduce((a, b) => a + b, 0));
        let smallRun = 0;
        for (const n of parts) {
          smallRun = n < 250 ? smallRun + 1 : 0;
          expect(smallRun).toBeLessThan(2 * compactRun);
        }
      }),
    );
  });
});

// appends partitions of `sizes` rows one at a time, merging what pickRun picks until it picks nothing;
// the partition sizes left and the rows merges rewrote
function appendAndCompact(sizes: readonly number[], partitionRows: number, compactRun: number): { parts: number[]; rewritten: number } {
  let parts: PartRecord[] = [];
  let seq = 0;
  let rewritten = 0;
  for (const n of sizes) {
    parts.push(part(seq++, n));
    for (let run = pickRun(parts, partitionRows, compactRun); run.length > 1; run = pickRun(parts, partitionRows, compactRun)) {
      const rows = run.reduce((a, p) => a + p.rows, 0);
      rewritten += rows;
      const at = parts.indexOf(run[0]!);
      parts = [...parts.slice(0, at), part(seq++, rows), ...parts.slice(at + run.length)];
    }
  }
  return { parts: parts.map((p) => p.rows), rewritten };
}

describe('mergedZones', () => {
  it('equals the zone maps of a pass over the joined partitions (NaN, null, -0, strings)', () => {
    const float = fc.oneof(fc.double(), fc.constant(Number.NaN), fc.constant(-0), fc.constant(null));
    const text = fc.option(fc.string({ unit: 'binary', maxLength: 3 }), { freq: 4 });
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(float, text), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 5 }), (chunks) => {
        const data = chunks.map((c) => ({
          v: vectorFromArray(c.map((r) => r[0]), new Float64()).data[0]!,
          s: vectorFromArray(c.map((r) => r[1]), new Utf8()).data[0]!,
        }));
        const parts = data.map((d, i) => ({ ...part(i, d.v.length), zones: { v: zoneStats(d.v), s: zoneStats(d.s) } }) as PartRecord);
        const merged = mergedZones(parts);
        expect(merged.v).toEqual(zoneStats(concatData(new Float64(), data.map((d) => d.v))));
        expect(merged.s).toEqual(zoneStats(concatData(new Utf8(), data.map((d) => d.s))));
      }),
    );
  });

  it('leaves a column to a pass when an older input has no NaN count', () => {
    const zone = { min: 1, max: 2, nullCount: 0, rows: 3 };
    const parts = [{ ...part(0, 3), zones: { v: { ...zone, nanCount: 0 } } }, { ...part(1, 3), zones: { v: zone } }] as PartRecord[];
    expect(mergedZones(parts)).toEqual({});
  });
});
