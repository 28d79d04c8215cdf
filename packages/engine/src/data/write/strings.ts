// Writes JS strings into utf8/largeutf8 and Uint8Arrays (Buffers) into binary/largebinary columns.
import { type Data, type Field, Type } from 'apache-arrow';
import { isLarge, typeName } from '../../schema/types.js';
import { RowError, expected } from '../fail.js';
import { putInt64, wordsOf } from '../int64.js';
import { varData } from '../layout.js';
import { type ColumnBuilder, type ColumnWriter, type Row, Validity } from './writer.js';

/** utf8/largeutf8 from strings (ASCII copied inline, the rest through TextEncoder); binary from Uint8Array. */
export const writeStrings: ColumnWriter = (field, length) => new BytesBuilder(field, length);

const INT32_MAX = 2147483647;
const encoder = new TextEncoder();

class BytesBuilder implements ColumnBuilder {
  private readonly text: boolean;
  private readonly validity: Validity;
  private bytes: Uint8Array;
  private p = 0;
  private readonly off32: Int32Array | null;
  private readonly off64: BigInt64Array | null;
  private readonly words: Int32Array | null;

  constructor(
    private readonly field: Field,
    private readonly length: number,
  ) {
    this.text = field.type.typeId === Type.Utf8 || field.type.typeId === Type.LargeUtf8;
    this.validity = new Validity(length, field.nullable);
    this.bytes = new Uint8Array(Math.max(1024, length * 8));
    this.off32 = isLarge(field.type) ? null : new Int32Array(length + 1);
    this.off64 = isLarge(field.type) ? new BigInt64Array(length + 1) : null;
    this.words = this.off64 && wordsOf(this.off64);
  }

  write(src: readonly unknown[], key: string | null, lo: number, hi: number): void {
    const { text, validity } = this;
    for (let i = lo; i < hi; i++) {
      const v = key === null ? src[i] : (src[i] as Row)[key];
      if (text && typeof v === 'string') this.addString(i, v);
      else if (!text && v instanceof Uint8Array) this.addBytes(v);
      else if (v === null || v === undefined) validity.setNull(i, v);
      else throw expected(i, typeName(this.field.type), v, text ? undefined : 'a Uint8Array or Buffer');
      // the end offset of row i
      if (this.off32) {
        if (this.p > INT32_MAX) throw new RowError(i, 'more than 2 GiB of data in one insert; insert in smaller parts or use a large type');
        this.off32[i + 1] = this.p;
      } else putInt64(this.words!, i + 1, this.p);
    }
  }

  finish(): Data {
    const { bitmap, nullCount } = this.validity.finish();
    // keep the spare capacity only when it is small
    const bytes = this.bytes.length > this.p * 1.25 + 4096 ? this.bytes.slice(0, this.p) : this.bytes.subarray(0, this.p);
    return varData(this.field.type, this.length, (this.off32 ?? this.off64)!, bytes, bitmap, nullCount);
  }

  private addString(row: number, s: string): void {
    const n = s.length;
    // a UTF-16 code unit takes at most 3 UTF-8 bytes
    if (this.p + 3 * n > this.bytes.length) this.grow(this.p + 3 * n);
    const bytes = this.bytes;
    let p = this.p;
    let j = 0;
    for (; j < n; j++) {
      const c = s.charCodeAt(j);
      if (c >= 0x80) break;
      bytes[p++] = c;
    }
    if (j < n) {
      if (!(s as string & { isWellFormed(): boolean }).isWellFormed()) {
        throw new RowError(row, 'string has an unpaired surrogate, which UTF-8 cannot hold', s);
      }
      p += encoder.encodeInto(s.substring(j), bytes.subarray(p)).written;
    }
    this.p = p;
  }

  private addBytes(b: Uint8Array): void {
    if (this.p + b.length > this.bytes.length) this.grow(this.p + b.length);
    this.bytes.set(b, this.p);
    this.p += b.length;
  }

  private grow(need: number): void {
    const next = new Uint8Array(Math.max(need, this.bytes.length * 2));
    next.set(this.bytes.subarray(0, this.p));
    this.bytes = next;
  }
}
