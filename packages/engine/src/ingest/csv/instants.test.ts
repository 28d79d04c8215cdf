import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIso } from '../../data/iso8601.js';
import { isoMillis } from './instants.js';

const millis = (t: string) => isoMillis(Buffer.from(`#${t}#`, 'latin1'), 1, t.length + 1);

// the common form with every part possibly out of range or malformed, and other ISO-8601 forms
const two = fc.oneof(fc.integer({ min: 0, max: 99 }).map((v) => String(v).padStart(2, '0')), fc.constantFrom('0x', '+1', ' 1', '1'));
const form = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 9999 }).map((y) => String(y).padStart(4, '0')), fc.constantFrom('+02024', '-0001', '202')),
    two,
    two,
    fc.constantFrom('T', 't', ' ', 'x'),
    two,
    two,
    two,
    fc.constantFrom('', '.123', '.1', '.000', ',500', '.12a', '.123456'),
    fc.constantFrom('Z', 'z', '', '+01:00', '-0530', 'Q'),
  )
  .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`);

describe('ISO-8601 instants from bytes', () => {
  it('either no answer (the text is parsed) or the instant the text parser gives', () => {
    const out = new Float64Array(2);
    fc.assert(
      fc.property(fc.oneof(form, fc.date({ noInvalidDate: true }).map((d) => d.toISOString())), (t) => {
        const v = millis(t);
        if (Number.isNaN(v)) return;
        expect(parseIso(t, out)).toBeNull();
        expect([v, 0]).toEqual([out[0], out[1]]);
      }),
      { numRuns: 20000 },
    );
  });

  it('answers the common UTC form', () => {
    expect(millis('2020-01-01T00:00:00.009Z')).toBe(Date.UTC(2020, 0, 1, 0, 0, 0, 9));
    expect(millis('2024-02-29 23:59:59z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59));
    expect(millis('2023-02-29T00:00:00Z')).toBeNaN();
    expect(millis('2024-05-01T24:00:00Z')).toBeNaN();
  });
});
