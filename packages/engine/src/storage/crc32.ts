// CRC-32 (zlib's: reflected, polynomial 0xEDB88320) of a concatenation from the CRCs of its parts,
// so bytes can be checksummed where they are made (a Parquet worker, while its values are in cache)
// and the segment's CRC put together later without reading them again. The arithmetic is zlib's
// `crc32_combine` (crc32.c): multiplication modulo the CRC polynomial over GF(2), and x^(8n) by
// repeated squaring.

const POLY = 0xedb88320;

// a * b modulo the polynomial; bit 31 is the x^0 coefficient (reflected)
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

// x^(2^k) modulo the polynomial, k = 0..31
const X2N: Uint32Array = (() => {
  const table = new Uint32Array(32);
  let p = 0x40000000; // x^1
  table[0] = p;
  for (let k = 1; k < 32; k++) table[k] = p = multModP(p, p);
  return table;
})();

// x^(n · 2^k) modulo the polynomial
function x2nModP(n: number, k: number): number {
  let p = 0x80000000; // x^0
  while (n > 0) {
    if (n % 2 === 1) p = multModP(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/**
 * The CRC-32 of `A ‖ B` from `crcA = crc32(A)`, `crcB = crc32(B)` and B's length in bytes.
 * @example
 * crc32Combine(crc32(a), crc32(b), b.length) === crc32(Buffer.concat([a, b]))
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(x2nModP(lengthB, 3), crcA >>> 0) ^ crcB) >>> 0;
}
