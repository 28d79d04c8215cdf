// Reads utf8 and binary chunks: strings cut from one decode of the whole buffer, byte copies.
import { isUtf8 } from 'node:buffer';
import { type Data, Type } from 'apache-arrow';
import { getInt64, wordsOf } from '../int64.js';
import { isValid } from '../layout.js';
import { type ColumnReader, nullsOf } from './reader.js';

/** utf8/largeutf8 → string; binary/largebinary → a Uint8Array copy. */
export const readStrings: ColumnReader = (data, out) => {
  const nulls = nullsOf(data);
  const n = data.length;
  const text = data.typeId === Type.Utf8 || data.typeId === Type.LargeUtf8;
  const whole = text ? textOf(data) : null;
  if (whole !== null) {
    const { text: w, at } = whole;
    for (let i = 0; i < n; i++) out[i] = nulls !== null && !isValid(nulls, i) ? null : w.substring(at[i]!, at[i + 1]!);
    return;
  }
  const bytes = data.values as Uint8Array;
  const at = offsetsOf(data);
  if (!text) {
    for (let i = 0; i < n; i++) out[i] = nulls !== null && !isValid(nulls, i) ? null : bytes.slice(at(i), at(i + 1));
    return;
  }
  for (let i = 0; i < n; i++) out[i] = nulls !== null && !isValid(nulls, i) ? null : decoder.decode(bytes.subarray(at(i), at(i + 1)));
};

/** A utf8 chunk decoded once: value `i` is `text.substring(at[i], at[i + 1])` (UTF-16 units). */
export interface Text {
  readonly text: string;
  readonly at: Int32Array;
}

/**
 * An offset-0 utf8/largeutf8 chunk as one decoded string and each value's UTF-16 offsets into it,
 * so a value is one substring, made when it is needed (see `rowSource`); null when the bytes are
 * not valid UTF-8 as a whole or too long for one string (then each value is decoded on its own).
 */
export function textOf(data: Data): Text | null {
  const bytes = data.values as Uint8Array;
  const off = offsetsOf(data);
  const n = data.length;
  const used = bytes.subarray(0, off(n));
  if (used.length >= MAX_STRING || !isUtf8(used)) return null;
  const text = decoder.decode(used);
  const offsets = data.valueOffsets as unknown as Int32Array | BigInt64Array;
  // ASCII: byte offsets are the unit offsets
  if (text.length === used.length && offsets instanceof Int32Array && offsets.length > n) return { text, at: offsets };
  const at = new Int32Array(n + 1);
  if (text.length === used.length) {
    for (let i = 0; i <= n; i++) at[i] = off(i);
    return { text, at };
  }
  // a forward scan counting UTF-16 units (offsets never decrease)
  let b = 0;
  let u = 0;
  for (let i = 1; i <= n; i++) {
    const e = off(i);
    for (; b < e; b++) u += unitsOf(bytes[b]!);
    at[i] = u;
  }
  return { text, at };
}

const decoder = new TextDecoder();
// V8's longest string is 2^29 - 24 UTF-16 units
const MAX_STRING = 2 ** 29 - 24;

// UTF-16 units that start at this byte: 1 for a 1-3 byte sequence lead, 2 for a 4-byte lead, 0 for continuations.
function unitsOf(byte: number): number {
  return byte < 0x80 ? 1 : byte < 0xc0 ? 0 : byte < 0xf0 ? 1 : 2;
}

function offsetsOf(data: Data): (i: number) => number {
  const offsets = data.valueOffsets as unknown as Int32Array | BigInt64Array;
  if (offsets instanceof Int32Array) return (i) => offsets[i]!;
  const words = wordsOf(offsets);
  return (i) => getInt64(words, i);
}
