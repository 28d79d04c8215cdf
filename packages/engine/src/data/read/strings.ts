// Reads utf8 and binary chunks: strings cut from one decode of the whole buffer, byte copies.
import { isUtf8 } from 'node:buffer';
import { type Data, Type } from 'apache-arrow';
import { getInt64, wordsOf } from '../int64.js';
import { isValid } from '../layout.js';
import { type ColumnReader, nullsOf } from './reader.js';

/** utf8/largeutf8 → string; binary/largebinary → a Uint8Array copy. */
export const readStrings: ColumnReader = (data, out) => {
  const bytes = data.values as Uint8Array;
  const at = offsetsOf(data);
  const nulls = nullsOf(data);
  const n = data.length;
  const text = data.typeId === Type.Utf8 || data.typeId === Type.LargeUtf8;
  if (!text) {
    for (let i = 0; i < n; i++) out[i] = nulls !== null && !isValid(nulls, i) ? null : bytes.slice(at(i), at(i + 1));
    return;
  }
  // valid UTF-8 is decoded once; each value is then a substring, found by a forward scan
  // counting UTF-16 units (offsets never decrease), which is the identity for ASCII
  const used = bytes.subarray(0, at(n));
  if (used.length < MAX_STRING && isUtf8(used)) {
    const whole = decoder.decode(used);
    const ascii = whole.length === used.length;
    let b = 0;
    let u = 0;
    let start = 0;
    for (let i = 0; i < n; i++) {
      const s = at(i);
      const e = at(i + 1);
      if (ascii) out[i] = nulls !== null && !isValid(nulls, i) ? null : whole.substring(s, e);
      else {
        for (; b < s; b++) u += unitsOf(bytes[b]!);
        start = u;
        for (; b < e; b++) u += unitsOf(bytes[b]!);
        out[i] = nulls !== null && !isValid(nulls, i) ? null : whole.substring(start, u);
      }
    }
    return;
  }
  for (let i = 0; i < n; i++) out[i] = nulls !== null && !isValid(nulls, i) ? null : decoder.decode(bytes.subarray(at(i), at(i + 1)));
};

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
