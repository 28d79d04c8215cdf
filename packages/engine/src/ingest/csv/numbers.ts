// Numbers read straight from CSV field bytes, where that is exact: the caller falls back to the text
// forms (text.ts: floatOf, integerOf) for everything else, so what is accepted and each value are
// exactly what the text path gives.

// 10^0 … 10^22: every one exact as a double
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/**
 * The double that decimal text `b[s, e)` (`[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?`)
 * denotes, where it can be computed exactly in doubles, else NaN (other text, more than 19
 * significant digits, or a power of ten out of reach: then parse the text). With m the significant
 * digits as an integer and 10^k (|k| ≤ 22, an exact double) the scale:
 * - up to 15 digits (Clinger's fast path): m < 2^53 is exact, and m × 10^k or m / 10^-k is one
 *   correctly rounded operation, so it is the value `Number()` gives;
 * - 16 to 19 digits with k < 0: `dividedExactly`.
 */
export function fastFloat(b: Uint8Array, s: number, e: number): number {
  let p = s;
  let neg = false;
  if (p < e && (b[p] === 0x2d || b[p] === 0x2b)) neg = b[p++] === 0x2d;
  let hi = 0; // the first 15 significant digits
  let lo = 0; // the significant digits after those
  let digits = 0; // significant digits (leading zeros are not)
  let scale = 0; // digits after the point
  let any = false; // a mantissa digit seen
  for (let point = false; p < e; p++) {
    const x = b[p]!;
    if (x === 0x2e && !point) {
      point = true;
      continue;
    }
    const d = x - 48;
    if (d < 0 || d > 9) break;
    any = true;
    if (point) scale++;
    if (digits === 0 && d === 0) continue;
    if (++digits <= 15) hi = hi * 10 + d;
    else lo = lo * 10 + d;
  }
  if (!any) return Number.NaN;
  let k = -scale;
  if (p < e && (b[p] === 0x65 || b[p] === 0x45)) {
    p++;
    let eneg = false;
    if (p < e && (b[p] === 0x2d || b[p] === 0x2b)) eneg = b[p++] === 0x2d;
    if (p === e) return Number.NaN;
    let x = 0;
    for (; p < e; p++) {
      const d = b[p]! - 48;
      if (d < 0 || d > 9) return Number.NaN;
      if (x < 1e6) x = x * 10 + d;
    }
    k += eneg ? -x : x;
  }
  if (p !== e) return Number.NaN;
  let v: number;
  if (digits === 0) v = 0;
  else if (digits <= 15) {
    if (k >= 0 && k <= 22) v = hi * POW10[k]!;
    else if (k < 0 && k >= -22) v = hi / POW10[-k]!;
    else return Number.NaN;
  } else if (digits <= 19 && k < 0 && k >= -22) v = dividedExactly(hi, digits - 15, lo, POW10[-k]!);
  else return Number.NaN;
  return neg ? -v : v;
}

const SPLIT = 134217729; // 2^27 + 1 (Veltkamp)
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/**
 * (hi × 10^j + lo) / d correctly rounded (hi < 10^15, j ≤ 4, lo < 10^j, d = 10^n exact), or NaN
 * when too close to a rounding boundary to decide. m = hi × 10^j + lo is made exact as mh + ml
 * (error-free product and sum); q = mh / d is correctly rounded for mh. The exact residual
 * R = m − q × d (error-free product; mh − a is exact by Sterbenz) places m / d against q's rounding
 * interval [q − u/2, q + u/2] (u = ulp(q)): inside it the answer is q, outside (it is less than
 * 1.5 ulp away) the neighbour towards R; within a relative 2^-50 of either interval's edge, or when
 * q is a power of two (a narrower interval below), NaN.
 */
function dividedExactly(hi: number, j: number, lo: number, d: number): number {
  // m = p + e + lo exactly; e and lo are small integers, so t = e + lo is exact
  const scale = POW10[j]!;
  const p = hi * scale;
  const t = twoProductError(hi, scale, p) + lo;
  const mh = p + t; // |p| ≥ |t|: Fast2Sum
  const ml = t - (mh - p);
  const q = mh / d;
  if (ml === 0) return q; // m is exact: one correctly rounded division (Clinger)
  const a = q * d;
  const r = mh - a + ml - twoProductError(q, d, a); // mh − a and + ml exact (integers ≥ 2^53 apart by little); one rounding last
  f64[0] = q;
  const top = u32[1]!;
  if ((top & 0xfffff) === 0 && u32[0] === 0) return Number.NaN;
  u32[1] = (((top >>> 20) & 0x7ff) - 52) << 20;
  u32[0] = 0;
  const u = f64[0]!;
  const half = (d * u) / 2;
  const off = Math.abs(r);
  if (off < half * (1 - 2 ** -50)) return q;
  if (off > half * (1 + 2 ** -50) && off < 3 * half * (1 - 2 ** -50)) return r > 0 ? q + u : q - u;
  return Number.NaN;
}

// x × y − fl(x × y) exactly (Dekker's product, no overflow here)
function twoProductError(x: number, y: number, xy: number): number {
  let c = SPLIT * x;
  const xh = c - (c - x);
  const xl = x - xh;
  c = SPLIT * y;
  const yh = c - (c - y);
  const yl = y - yh;
  return xl * yl - (((xy - xh * yh) - xl * yh) - xh * yl);
}

/**
 * The integer that text `b[s, e)` (`[+-]?digits`) denotes when it has under 16 characters (as
 * `integerOf` reads it: exact as a double), else NaN (other text, or longer: parse the text).
 */
export function fastInt(b: Uint8Array, s: number, e: number): number {
  if (e - s >= 16 || e === s) return Number.NaN;
  let p = s;
  let neg = false;
  if (b[p] === 0x2d || b[p] === 0x2b) neg = b[p++] === 0x2d;
  if (p === e) return Number.NaN;
  let v = 0;
  for (; p < e; p++) {
    const d = b[p]! - 48;
    if (d < 0 || d > 9) return Number.NaN;
    v = v * 10 + d;
  }
  return neg ? -v : v;
}
