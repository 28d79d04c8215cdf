// Casts between the 32- and 64-bit offset forms of utf8 and of binary; the bytes are shared.
import { type DataType, Type } from 'apache-arrow';
import { isLarge } from '../../schema/types.js';
import { RowError } from '../fail.js';
import { getInt64, wordsOf } from '../int64.js';
import { varData } from '../layout.js';
import type { Cast } from './cast.js';

/** utf8 ↔ largeutf8 and binary ↔ largebinary (not utf8 ↔ binary); offsets are rewritten. */
export const castVarWidth: Cast = (data, to) => {
  if (isText(data.type) !== isText(to) || columnIsBinary(data.type) !== columnIsBinary(to)) return null;
  const n = data.length;
  const bytes = data.values as Uint8Array;
  if (isLarge(to)) {
    const from = data.valueOffsets as Int32Array;
    const out = new BigInt64Array(n + 1);
    const words = wordsOf(out);
    for (let i = 0; i <= n; i++) words[2 * i] = from[i]!;
    return varData(to, n, out, bytes, data.nullBitmap, data.nullCount);
  }
  const words = wordsOf(data.valueOffsets as unknown as BigInt64Array);
  const out = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) {
    const end = getInt64(words, i);
    if (end > 2147483647) throw new RowError(i - 1, 'more than 2 GiB of data for 32-bit offsets; use a large type');
    out[i] = end;
  }
  return varData(to, n, out, bytes, data.nullBitmap, data.nullCount);
};

function isText(type: DataType): boolean {
  return type.typeId === Type.Utf8 || type.typeId === Type.LargeUtf8;
}

function columnIsBinary(type: DataType): boolean {
  return type.typeId === Type.Binary || type.typeId === Type.LargeBinary;
}
