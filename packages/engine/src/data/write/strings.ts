// Writes JS strings into utf8/largeutf8 and Uint8Arrays (Buffers) into binary/largebinary columns.
import { type Data, type Field, Type } from 'apache-arrow';
import { isLarge, typeName } from '../../schema/types.js';
import { RowError, expected } from '../fail.js';
import { putInt64, wordsOf } from '../int64.js';
import { varData } from '../layout.js';
import { type Alloc, type ColumnBuilder, type ColumnWriter, Validity, heapAlloc } from './writer.js';

/** utf8/largeutf8 from strings (ASCII copied inline, the rest through TextEncoder); binary from Uint8Array. */
export const writeStrings: ColumnWriter = (field, length, alloc) => new BytesBuilder(field, length, alloc);

const INT32_MAX = 2147483647;
const encoder = new TextEncoder();

class BytesBuilder implements ColumnBuilder {
  private readonly text: boolean;
  private readonly validity: Validity;
  private bytes: Uint8Array;
  private p = 0;
  // a block had other than ASCII strings: the next ones go value by value at once
  private mixed = false;
  private readonly off32: Int32Array | null;
  private readonly off64: BigInt64Array | null;
  private readonly words: Int32Array | null;

  constructor(
    private readonly field: Field,
    private readonly length: number,
    private readonly alloc: Alloc,
  ) {
    this.text = field.type.typeId === Type.Utf8 || field.type.typeId === Type.LargeUtf8;
    this.validity = new Validity(length, field.nullable, alloc);
    this.bytes = this.block(Math.max(1024, length * 8));
    this.off32 = isLarge(field.type) ? null : new Int32Array(alloc((length + 1) * 4), 0, length + 1);
    this.off64 = isLarge(field.type) ? new BigInt64Array(alloc((length + 1) * 8), 0, length + 1) : null;
    this.words = this.off64 && wordsOf(this.off64);
  }

  write(values: readonly unknown[], lo: number, hi: number): void {
    if (this.text && this.off32 !== null && !this.mixed && this.ascii(values, lo, hi)) return;
    const { text, validity, off32, words } = this;
    let { bytes, p } = this;
    for (let i = lo; i < hi; i++) {
      const v = values[i - lo];
      if (text && typeof v === 'string') {
        const n = v.length;
        // a UTF-16 code unit takes at most 3 UTF-8 bytes
        if (p + 3 * n > bytes.length) bytes = this.grow(p, p + 3 * n);
        // short ASCII strings are copied here; TextEncoder's per-call cost pays off from ~16 units
        if (n <= 16) {
          let j = 0;
          for (; j < n; j++) {
            const c = v.charCodeAt(j);
            if (c >= 0x80) break;
            bytes[p++] = c;
          }
          if (j < n) p = encodeRest(i, v, j, bytes, p);
        } else p = encodeRest(i, v, 0, bytes, p);
      } else if (!text && v instanceof Uint8Array) {
        if (p + v.length > bytes.length) bytes = this.grow(p, p + v.length);
        bytes.set(v, p);
        p += v.length;
      } else if (v === null || v === undefined) validity.setNull(i, v);
      else throw expected(i, typeName(this.field.type), v, text ? undefined : 'a Uint8Array or Buffer');
      // the end offset of row i
      if (off32 === null) putInt64(words!, i + 1, p);
      else if (p <= INT32_MAX) off32[i + 1] = p;
      else throw new RowError(i, 'more than 2 GiB of data in one insert; insert in smaller parts or use a large type');
    }
    this.bytes = bytes;
    this.p = p;
  }

  // A block of strings only, all ASCII, in one encode of them joined (a native copy; the loop below
  // goes a code unit at a time): true when done, false (nothing written) otherwise
  private ascii(values: readonly unknown[], lo: number, hi: number): boolean {
    const off32 = this.off32!;
    let units = 0;
    for (let i = lo; i < hi; i++) {
      const v = values[i - lo];
      if (typeof v !== 'string') return false;
      units += v.length;
    }
    const start = this.p;
    if (hi <= lo || start + 3 * units > INT32_MAX) return false;
    const block = values.length === hi - lo ? (values as string[]) : (values.slice(0, hi - lo) as string[]);
    if (start + 3 * units > this.bytes.length) this.grow(start, start + 3 * units);
    // one UTF-8 byte a unit: every unit was ASCII (any other takes two or three bytes, a pair four)
    if (encoder.encodeInto(block.join(''), this.bytes.subarray(start)).written !== units) {
      this.mixed = true;
      return false;
    }
    let p = start;
    for (let i = lo; i < hi; i++) off32[i + 1] = p += (values[i - lo] as string).length;
    this.p = p;
    return true;
  }

  finish(): Data {
    const { bitmap, nullCount } = this.validity.finish();
    // keep the spare capacity only when it is small, or the memory is the allocator's to reuse
    const trim = this.alloc === heapAlloc && this.bytes.length > this.p * 1.25 + 4096;
    const bytes = trim ? this.bytes.slice(0, this.p) : this.bytes.subarray(0, this.p);
    return varData(this.field.type, this.length, (this.off32 ?? this.off64)!, bytes, bitmap, nullCount);
  }

  // a larger buffer holding the first p bytes
  private grow(p: number, need: number): Uint8Array {
    const next = this.block(Math.max(need, this.bytes.length * 2));
    next.set(this.bytes.subarray(0, p));
    return (this.bytes = next);
  }

  private block(bytes: number): Uint8Array {
    return new Uint8Array(this.alloc(bytes), 0, bytes);
  }
}

// Encodes s from code unit j on at bytes[p] (room for 3 bytes a unit is there); the new end.
function encodeRest(row: number, s: string, j: number, bytes: Uint8Array, p: number): number {
  const { written } = encoder.encodeInto(j === 0 ? s : s.substring(j), bytes.subarray(p));
  // more bytes than units means non-ASCII text, which must not hold a lone surrogate
  if (written !== s.length - j && !(s as string & { isWellFormed(): boolean }).isWellFormed()) {
    throw new RowError(row, 'string has an unpaired surrogate, which UTF-8 cannot hold', s);
  }
  return p + written;
}
