import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastFloat, fastInt } from './numbers.js';
import { floatOf, integerOf } from './text.js';

const bytes = (t: string) => Buffer.from(`#${t}#`, 'utf8'); // the field between two other bytes
const float = (t: string) => fastFloat(bytes(t), 1, Buffer.byteLength(t) + 1);
const int = (t: string) => fastInt(bytes(t), 1, Buffer.byteLength(t) + 1);

// text near the number grammar: signs, points, exponents, spaces, inf/nan spellings, radix prefixes
const noisy = fc
  .array(fc.constantFrom('0', '1', '5', '9', '.', '-', '+', 'e', 'E', ' ', 'x', 'inf', 'NaN', 'Infinity', '_', 'é', '\t'), { maxLength: 12 })
  .map((a) => a.join(''));
const digitRun = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
// decimal text: up to 22 digits around an optional point, an optional exponent, an optional sign
const decimal = fc
  .tuple(fc.constantFrom('', '-', '+'), digitRun(0, 22), fc.option(digitRun(0, 22)), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '-', '+'), fc.integer({ min: 0, max: 40 }))))
  .map(([sign, int, frac, exp]) => `${sign}${int}${frac === null ? '' : `.${frac}`}${exp === null ? '' : `${exp[0]}${exp[1]}${exp[2]}`}`);
// doubles as JavaScript and other writers print them (shortest, 16–19 significant digits)
const printed = fc
  .tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 15, max: 19 }))
  .chain(([x, digits]) => fc.constantFrom(String(x), x.toPrecision(digits), x.toPrecision(digits).replace(/e\+?/, 'E')));

// the exact decimal of the midpoint between a double in [1e-6, 1e4) and the next one, cut to 17–19
// significant digits and nudged by -1, 0 or +1 in the last: the hardest inputs to round
const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
const nearMidpoint = fc
  .tuple(fc.double({ min: 1e-6, max: 1e4, noNaN: true }), fc.integer({ min: 17, max: 19 }), fc.integer({ min: -1, max: 1 }))
  .filter(([x]) => x > 0)
  .map(([x, digits, nudge]) => {
    f64[0] = x;
    const bits = i64[0]!;
    const exp = Number((bits >> 52n) & 0x7ffn) - 1075; // x = mant × 2^exp
    const mant = (bits & ((1n << 52n) - 1n)) | (1n << 52n);
    // midpoint = (2 mant + 1) × 2^(exp − 1) = (2 mant + 1) × 5^(1 − exp) / 10^(1 − exp)
    const shift = 1 - exp;
    const all = ((2n * mant + 1n) * 5n ** BigInt(shift)).toString();
    const point = all.length - shift; // digits before the decimal point
    let cut = BigInt(all.slice(0, digits)) + BigInt(nudge);
    if (cut < 0n) cut = 0n;
    const text = cut.toString().padStart(digits, '0');
    return `${text}e${point - digits}`;
  });

describe('CSV numbers from bytes', () => {
  it('floats: either no answer (the text is parsed) or exactly what the text path gives', () => {
    fc.assert(
      fc.property(fc.oneof(noisy, decimal, printed, nearMidpoint), (t) => {
        const v = float(t);
        if (!Number.isNaN(v)) expect(Object.is(v, floatOf(t))).toBe(true);
      }),
      { numRuns: 20000 },
    );
  });

  it('floats: up to 19 significant digits after a point, within 10^-22, are answered', () => {
    const within = fc
      .tuple(fc.constantFrom('', '-'), digitRun(1, 19), fc.integer({ min: 1, max: 22 }))
      .map(([sign, d, point]) => (point >= d.length ? `${sign}${d}` : `${sign}${d.slice(0, d.length - point)}.${d.slice(d.length - point)}`));
    let answered = 0;
    let total = 0;
    fc.assert(
      fc.property(within, (t) => {
        const v = float(t);
        total++;
        if (!Number.isNaN(v)) answered++;
        if (t.replace(/^-?0*/, '').replace('.', '').length <= 15) expect(Number.isNaN(v)).toBe(false);
        if (!Number.isNaN(v)) expect(Object.is(v, Number(t))).toBe(true);
      }),
      { numRuns: 20000 },
    );
    // the 16–19 digit path leaves only values within 2^-50 of a rounding boundary to the text
    expect(answered / total).toBeGreaterThan(0.99);
  });

  it('floats: fixed cases', () => {
    for (const t of ['0', '-0', '+0', '-0.0', '1.', '.5', '-.5', '+.5', '1e22', '1e-22', '123456789012345e-22', '-21.689177047481298', '0.028325749631448544', '9007199254740993e-3'])
      expect(Object.is(float(t), floatOf(t)), t).toBe(true);
    expect(float('9007199254740993')).toBeNaN(); // 17 digits and no point: left to the text
    for (const t of ['', '.', '-', '+', '1e', '1e+', 'e5', '1.2.3', ' 1', '1 ', '0x10', 'inf', 'NaN', '1_0', '١'])
      expect(float(t), t).toBeNaN();
  });

  it('int64: either no answer or exactly what integerOf gives (which takes under 16 characters as a number)', () => {
    const ints = fc.oneof(noisy, fc.tuple(fc.constantFrom('', '-', '+'), digitRun(0, 20)).map(([s, d]) => s + d));
    fc.assert(
      fc.property(ints, (t) => {
        const v = int(t);
        if (Number.isNaN(v)) {
          const w = integerOf(t);
          if (t.length < 16) expect(w).toBeUndefined();
        } else expect(Object.is(v, integerOf(t))).toBe(true);
      }),
      { numRuns: 10000 },
    );
  });
});
