import { describe, expect, it } from 'vitest';
import type { PartRecord } from '../storage/records.js';
import { Snapshots } from './snapshots.js';

const p = (id: string) => ({ id }) as PartRecord;

describe('Snapshots', () => {
  it('holds retired parts while an older reader is pinned', () => {
    const s = new Snapshots();
    const old = s.pin('t', 3);
    const newer = s.pin('t', 5);
    s.retire('t', 5, [p('a')]);
    s.retire('u', 1, [p('b')]);
    expect(s.collectable().map((x) => x.id)).toEqual(['b']);
    newer();
    expect(s.collectable()).toEqual([]);
    old();
    old(); // releasing twice is harmless
    expect(s.collectable().map((x) => x.id)).toEqual(['a']);
    expect(s.pinnedCount).toBe(0);
  });
  it('keeps dropped-table parts until every reader of that table is done', () => {
    const s = new Snapshots();
    const r = s.pin('t', 9);
    s.retire('t', Number.POSITIVE_INFINITY, [p('x')]);
    expect(s.collectable()).toEqual([]);
    r();
    expect(s.collectable().map((x) => x.id)).toEqual(['x']);
  });
});
