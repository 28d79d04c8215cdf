import { describe, expect, it } from 'vitest';
import { Snapshots } from './snapshots.js';

describe('Snapshots', () => {
  it('reports the lowest pinned version per table until released', () => {
    const s = new Snapshots();
    const old = s.pin('t', 3);
    const newer = s.pin('t', 5);
    const again = s.pin('t', 5);
    expect(s.minPinned('t')).toBe(3);
    expect(s.minPinned('u')).toBe(Number.POSITIVE_INFINITY);
    old();
    old(); // releasing twice is harmless
    expect(s.minPinned('t')).toBe(5);
    newer();
    expect(s.minPinned('t')).toBe(5);
    again();
    expect(s.minPinned('t')).toBe(Number.POSITIVE_INFINITY);
    expect(s.pinnedCount).toBe(0);
  });
});
