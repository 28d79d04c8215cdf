// Tokenized CSV fields (tokenize.ts) to typed columns, one column of a piece at a time: float64,
// int64 and timestamps parsed from the bytes where that is exact (numbers.ts, instants.ts), utf8
// copied as bytes; every other type, and every value the byte paths leave, goes through the field's
// text and the text path (convert.ts), so the values accepted and the errors are those of the text
// path.
import { isAscii, isUtf8 } from 'node:buffer';
import { type Data, type DataType, type Int, Precision, Type } from 'apache-arrow';
import { RowError, describeValue } from '../../data/fail.js';
import { parseIso } from '../../data/iso8601.js';
import { putInt64, wordsOf } from '../../data/int64.js';
import { fixedData, varData } from '../../data/layout.js';
import { putTime } from '../../data/write/instant.js';
import { Validity } from '../../data/write/writer.js';
import { floatPrecision, timeUnit, typeName } from '../../schema/types.js';
import { bad, putInteger, textColumn } from './convert.js';
import { isoMillis } from './instants.js';
import { fastFloat, fastInt } from './numbers.js';
import { floatOf, integerOf } from './text.js';
import type { Fields } from './tokenize.js';

/** The tokenized records of `bytes[from, to)`, with the field texts decoded on demand. */
export class Piece {
  private whole: string | null | undefined; // the piece as latin1 text when it is all ASCII, else null
  private utf8: boolean | undefined;

  constructor(
    readonly bytes: Buffer,
    readonly from: number,
    readonly to: number,
    readonly fields: Fields,
  ) {}

  /** Whether the piece is valid UTF-8 (its field bytes are then the UTF-8 of their text). */
  validUtf8(): boolean {
    this.utf8 ??= isUtf8(this.bytes.subarray(this.from, this.to));
    return this.utf8;
  }

  /** The text of field `k` (row * width + column): UTF-8 decoded, "" escapes undone. */
  text(k: number): string {
    const { starts, ends, escaped } = this.fields;
    const s = starts[k]!;
    const e = ends[k]!;
    if (this.whole === undefined) this.whole = isAscii(this.bytes.subarray(this.from, this.to)) ? this.bytes.toString('latin1', this.from, this.to) : null;
    const t = this.whole === null ? this.bytes.toString('utf8', s, e) : this.whole.substring(s - this.from, e - this.from);
    return escaped[k] === 1 ? t.replaceAll('""', '"') : t;
  }
}

/**
 * Column `c` of the piece's rows as a chunk of `type`; an empty field is null. Throws RowError (row
 * within the piece) for text that is not a value of the type, as textColumn does.
 */
export function fieldColumn(piece: Piece, c: number, name: string, type: DataType): Data {
  if (type.typeId === Type.Float && floatPrecision(type) === Precision.DOUBLE) return float64Column(piece, c, type);
  if (type.typeId === Type.Int && (type as Int).bitWidth === 64 && (type as Int).isSigned) return int64Column(piece, c, type);
  if (type.typeId === Type.Timestamp) return timestampColumn(piece, c, type);
  if (type.typeId === Type.Utf8 && piece.validUtf8()) return utf8Column(piece, c, type);
  const { rows, width } = piece.fields;
  const texts = new Array<string>(rows);
  for (let i = 0; i < rows; i++) texts[i] = piece.text(i * width + c);
  return textColumn(texts, name, type);
}

function float64Column(piece: Piece, c: number, type: DataType): Data {
  const { rows, width, starts, ends, escaped } = piece.fields;
  const b = piece.bytes;
  const out = new Float64Array(rows);
  const validity = new Validity(rows, true);
  for (let i = 0, k = c; i < rows; i++, k += width) {
    const s = starts[k]!;
    const e = ends[k]!;
    if (s === e) {
      validity.setNull(i, null);
      continue;
    }
    let v = escaped[k] === 1 ? Number.NaN : fastFloat(b, s, e);
    if (v !== v) {
      const text = piece.text(k);
      const w = floatOf(text);
      if (w === undefined) throw bad(i, type, text);
      v = w;
    }
    out[i] = v;
  }
  const { bitmap, nullCount } = validity.finish();
  return fixedData(type, rows, out, bitmap, nullCount);
}

function int64Column(piece: Piece, c: number, type: DataType): Data {
  const { rows, width, starts, ends, escaped } = piece.fields;
  const b = piece.bytes;
  const out = new BigInt64Array(rows);
  const words = wordsOf(out);
  const validity = new Validity(rows, true);
  for (let i = 0, k = c; i < rows; i++, k += width) {
    const s = starts[k]!;
    const e = ends[k]!;
    if (s === e) {
      validity.setNull(i, null);
      continue;
    }
    const fast = escaped[k] === 1 ? Number.NaN : fastInt(b, s, e);
    if (fast === fast) {
      putInt64(words, i, fast);
      continue;
    }
    const text = piece.text(k);
    const v = integerOf(text);
    if (v === undefined) throw bad(i, type, text);
    putInteger(out, words, i, v, text, type);
  }
  const { bitmap, nullCount } = validity.finish();
  return fixedData(type, rows, out, bitmap, nullCount);
}

// timestamps from the bytes in the common UTC form (instants.ts), else through the ISO-8601 text
// parser; messages as the text path's
function timestampColumn(piece: Piece, c: number, type: DataType): Data {
  const { rows, width, starts, ends, escaped } = piece.fields;
  const b = piece.bytes;
  const out = new BigInt64Array(rows);
  const words = wordsOf(out);
  const validity = new Validity(rows, true);
  const unit = timeUnit(type);
  const instant = new Float64Array(2);
  for (let i = 0, k = c; i < rows; i++, k += width) {
    const s = starts[k]!;
    const e = ends[k]!;
    if (s === e) {
      validity.setNull(i, null);
      continue;
    }
    let ms = escaped[k] === 1 ? Number.NaN : isoMillis(b, s, e);
    let ns = 0;
    if (ms !== ms) {
      const text = piece.text(k);
      const invalid = parseIso(text, instant);
      if (invalid !== null) throw new RowError(i, `${describeValue(text)} ${invalid}`, text);
      ms = instant[0]!;
      ns = instant[1]!;
    }
    const wrong = putTime(words, out, i, unit, ms, ns);
    if (wrong !== null) {
      const text = piece.text(k);
      throw new RowError(i, `${describeValue(text)} ${wrong} for ${typeName(type)}`, text);
    }
  }
  const { bitmap, nullCount } = validity.finish();
  return fixedData(type, rows, out, bitmap, nullCount);
}

// utf8 from a piece of valid UTF-8: the field bytes copied (the text path's decode and encode give
// the same bytes), "" escapes undone
function utf8Column(piece: Piece, c: number, type: DataType): Data {
  const { rows, width, starts, ends, escaped } = piece.fields;
  const b = piece.bytes;
  let total = 0;
  for (let i = 0, k = c; i < rows; i++, k += width) total += ends[k]! - starts[k]!;
  const bytes = new Uint8Array(total);
  const offsets = new Int32Array(rows + 1);
  const validity = new Validity(rows, true);
  let p = 0;
  for (let i = 0, k = c; i < rows; i++, k += width) {
    const s = starts[k]!;
    const e = ends[k]!;
    if (s === e) validity.setNull(i, null);
    else if (escaped[k] === 1) {
      for (let j = s; j < e; j++) {
        const x = b[j]!;
        bytes[p++] = x;
        if (x === 0x22) j++; // the second quote of a ""
      }
    } else if (e - s <= 16) for (let j = s; j < e; j++) bytes[p++] = b[j]!;
    else {
      bytes.set(b.subarray(s, e), p);
      p += e - s;
    }
    offsets[i + 1] = p;
  }
  const { bitmap, nullCount } = validity.finish();
  return varData(type, rows, offsets, p === total ? bytes : bytes.slice(0, p), bitmap, nullCount);
}
