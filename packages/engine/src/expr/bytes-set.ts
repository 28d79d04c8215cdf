// A set of strings as UTF-8 bytes that a generated kernel asks about byte ranges of a column: `x in ("a", "b", ...)` on strings.
import { EQ } from './runtime.js';
import { bytesOf } from './scalar.js';

/**
 * Strings hashed by their UTF-8 bytes, so that a row's value is looked up without making a
 * string: one pass over its bytes, then a byte comparison with the few members of its bucket.
 * @example
 * new BytesSet(['a', 'é']).has(bytes, start, end) // true when bytes[start, end) is "a" or "é"
 */
export class BytesSet {
  private readonly buckets = new Map<number, Uint8Array[]>();

  constructor(values: readonly string[]) {
    for (const v of values) {
      const b = bytesOf(v);
      const h = hash(b, 0, b.length);
      const bucket = this.buckets.get(h);
      if (bucket === undefined) this.buckets.set(h, [b]);
      else if (!bucket.some((x) => EQ(x, 0, x.length, b, 0, b.length))) bucket.push(b);
    }
  }

  /** Whether data[start, end) is one of the strings. */
  has(data: Uint8Array, start: number, end: number): boolean {
    const bucket = this.buckets.get(hash(data, start, end));
    if (bucket === undefined) return false;
    for (let i = 0; i < bucket.length; i++) {
      const b = bucket[i]!;
      if (EQ(data, start, end, b, 0, b.length)) return true;
    }
    return false;
  }
}

// FNV-1a over the bytes, seeded with the length
function hash(data: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 ^ (end - start);
  for (let i = start; i < end; i++) h = Math.imul(h ^ data[i]!, 0x01000193);
  return h | 0;
}
