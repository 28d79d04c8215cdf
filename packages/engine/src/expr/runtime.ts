// Helpers that generated kernels call; small and monomorphic so V8 inlines them.

/** Whether bytes a[as, ae) equal b[bs, be). */
export function EQ(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): boolean {
  const n = ae - as;
  if (n !== be - bs) return false;
  for (let j = 0; j < n; j++) if (a[as + j] !== b[bs + j]) return false;
  return true;
}

/** Lexicographic order of bytes a[as, ae) and b[bs, be): negative, 0 or positive (UTF-8 = code point order). */
export function CMP(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): number {
  const n = Math.min(ae - as, be - bs);
  for (let j = 0; j < n; j++) {
    const d = a[as + j]! - b[bs + j]!;
    if (d !== 0) return d;
  }
  return ae - as - (be - bs);
}

/** Integer remainder of bigints; the zero-divisor case is masked as null by the caller. */
export function MOD(a: bigint, b: bigint): bigint {
  return b === 0n ? 0n : a % b;
}

/** BigInt of an integer-valued number; a non-integer (NaN of a masked `% 0`) gives 0n. */
export function BI(x: number): bigint {
  return Number.isInteger(x) ? BigInt(x) : 0n;
}

let ones = new Uint8Array(0);

/** An all-valid bitmap of at least `n` bits, standing in for a column without nulls. */
export function ONES(n: number): Uint8Array {
  if (ones.length * 8 < n) ones = new Uint8Array(Math.max((n + 7) >>> 3, ones.length * 2)).fill(0xff);
  return ones;
}
