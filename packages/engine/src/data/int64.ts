// Exact 64-bit integer slots written and read as two 32-bit words, so hot loops allocate no BigInt.
// Invariant: the platform is little-endian (as Arrow IPC and apache-arrow assume), so word 2i is
// the low half and word 2i+1 the signed high half of slot i.

const TWO32 = 4294967296;

/** Writes the integral double `v` (-2^63 <= v < 2^64) into slot `i`; an unsigned slot reads it back unsigned. */
export function putInt64(words: Int32Array, i: number, v: number): void {
  const hi = Math.floor(v / TWO32);
  words[2 * i] = v - hi * TWO32;
  words[2 * i + 1] = hi;
}

/**
 * Writes `v * factor + add` exactly into slot `i`, for an integral `v` with |v| <= 2^53,
 * 1 <= factor <= 1e6 and 0 <= add < factor. Returns false (writing nothing) on int64 overflow.
 */
export function putScaled(words: Int32Array, i: number, v: number, factor: number, add: number): boolean {
  const hi = Math.floor(v / TWO32);
  // lo * factor + add < 2^32 * 1e6 + 1e6 < 2^53, so it is exact; so is hi * factor
  const x = (v - hi * TWO32) * factor + add;
  const carry = Math.floor(x / TWO32);
  const high = hi * factor + carry;
  if (high < -2147483648 || high > 2147483647) return false;
  words[2 * i] = x - carry * TWO32;
  words[2 * i + 1] = high;
  return true;
}

/** The signed value of slot `i` as a double (exact when |value| <= 2^53). */
export function getInt64(words: Int32Array, i: number): number {
  return words[2 * i + 1]! * TWO32 + (words[2 * i]! >>> 0);
}

/** floor(value / d) of the signed slot `i` for 1 <= d <= 2^20; exact while the quotient is below 2^53. */
export function floorDivInt64(words: Int32Array, i: number, d: number): number {
  // value = hi * 2^32 + lo and hi = a * d + b, so value / d = a * 2^32 + (b * 2^32 + lo) / d
  const hi = words[2 * i + 1]!;
  const lo = words[2 * i]! >>> 0;
  const a = Math.floor(hi / d);
  const rest = (hi - a * d) * TWO32 + lo;
  let q = Math.floor(rest / d);
  if (q * d > rest) q--;
  return a * TWO32 + q;
}

/** A little-endian Int32Array view over the words of a 64-bit typed array. */
export function wordsOf(a: BigInt64Array | BigUint64Array): Int32Array {
  return new Int32Array(a.buffer, a.byteOffset, a.length * 2);
}
