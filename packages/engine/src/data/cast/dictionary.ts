// Decodes a dictionary-encoded chunk (as data frames produce for strings) into a plain chunk.
import { type Data, Type, type Vector } from 'apache-arrow';
import { columnKind } from '../../schema/types.js';
import { RowError } from '../fail.js';
import { getInt64, putInt64, wordsOf } from '../int64.js';
import { bitmapBytes, fixedData, isValid, isVarWidth, varData, zeroOffset } from '../layout.js';

/**
 * The chunk with each index replaced by its dictionary value, typed as the dictionary's value
 * type; null when that type is not a column type or the dictionary has several chunks.
 */
export function decodeDictionary(data: Data): Data | null {
  const dictionary = (data.dictionary as Vector | undefined)?.data;
  if (!dictionary || dictionary.length !== 1 || columnKind(dictionary[0]!.type) === null) return null;
  const dict = zeroOffset(dictionary[0]!);
  const n = data.length;
  const index = data.values as ArrayLike<number | bigint>;
  const dictNulls = dict.nullCount > 0 ? (dict.nullBitmap ?? null) : null;
  // the row's index, or -1 for a null (a null index or a null dictionary value)
  const picks = new Float64Array(n);
  const bits = new Uint8Array(bitmapBytes(n));
  let nullCount = 0;
  for (let i = 0; i < n; i++) {
    const isNull = data.nullCount > 0 && data.nullBitmap && !isValid(data.nullBitmap, data.offset + i);
    const k = isNull ? -1 : Number(index[i]);
    if (!isNull && !(k >= 0 && k < dict.length)) throw new RowError(i, `dictionary index ${k} is out of range (${dict.length} values)`);
    picks[i] = isNull || (dictNulls !== null && !isValid(dictNulls, k)) ? -1 : k;
    if (picks[i]! < 0) nullCount++;
    else bits[i >> 3]! |= 1 << (i & 7);
  }
  return isVarWidth(dict.type) ? takeBytes(dict, picks, bits, nullCount) : takeFixed(dict, picks, bits, nullCount);
}

function takeFixed(dict: Data, picks: Float64Array, bits: Uint8Array, nullCount: number): Data {
  const n = picks.length;
  const src = dict.values as Uint8Array | Int32Array | BigInt64Array;
  if (dict.type.typeId === Type.Bool) {
    const out = new Uint8Array(bitmapBytes(n));
    for (let i = 0; i < n; i++) if (picks[i]! >= 0 && isValid(src as Uint8Array, picks[i]!)) out[i >> 3]! |= 1 << (i & 7);
    return fixedData(dict.type, n, out, bits, nullCount);
  }
  const out = new (src.constructor as Int32ArrayConstructor)(n);
  // 64-bit values move as two 32-bit words, so no BigInt is created
  const [from, to, w] = src.BYTES_PER_ELEMENT === 8 ? [wordsOf(src as BigInt64Array), wordsOf(out as never), 2] : [src as Int32Array, out, 1];
  for (let i = 0; i < n; i++) {
    const k = picks[i]!;
    if (k < 0) continue;
    for (let j = 0; j < w; j++) to[w * i + j] = from[w * k + j]!;
  }
  return fixedData(dict.type, n, out, bits, nullCount);
}

function takeBytes(dict: Data, picks: Float64Array, bits: Uint8Array, nullCount: number): Data {
  const n = picks.length;
  const large = !(dict.valueOffsets instanceof Int32Array);
  const from = large ? wordsOf(dict.valueOffsets as unknown as BigInt64Array) : null;
  const at = (k: number) => (from ? getInt64(from, k) : (dict.valueOffsets as Int32Array)[k]!);
  // sizes first, then one copy per value
  let total = 0;
  for (let i = 0; i < n; i++) if (picks[i]! >= 0) total += at(picks[i]! + 1) - at(picks[i]!);
  const bytes = new Uint8Array(total);
  const src = dict.values as Uint8Array;
  const offsets = large ? new BigInt64Array(n + 1) : new Int32Array(n + 1);
  const words = large ? wordsOf(offsets as BigInt64Array) : null;
  let p = 0;
  for (let i = 0; i < n; i++) {
    const k = picks[i]!;
    if (k >= 0) {
      bytes.set(src.subarray(at(k), at(k + 1)), p);
      p += at(k + 1) - at(k);
    }
    if (words) putInt64(words, i + 1, p);
    else if (p > 2147483647) throw new RowError(i, 'more than 2 GiB of data for 32-bit offsets; use a large type');
    else (offsets as Int32Array)[i + 1] = p;
  }
  return varData(dict.type, n, offsets, bytes, bits, nullCount);
}
