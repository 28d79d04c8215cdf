// Reads integer, float and bool chunks: numbers, bigints for 64-bit integers, booleans.
import { isValid } from '../layout.js';
import { type ColumnReader, nullsOf } from './reader.js';

/** int8..uint32 and floats → number; int64/uint64 → bigint (the typed array's own element type). */
export const readNumbers: ColumnReader = (data, out) => {
  const values = data.values as ArrayLike<number | bigint>;
  const nulls = nullsOf(data);
  const n = data.length;
  if (nulls === null) for (let i = 0; i < n; i++) out[i] = values[i];
  else for (let i = 0; i < n; i++) out[i] = isValid(nulls, i) ? values[i] : null;
};

/** bool → boolean. */
export const readBools: ColumnReader = (data, out) => {
  const bits = data.values as Uint8Array;
  const nulls = nullsOf(data);
  for (let i = 0; i < data.length; i++) out[i] = nulls !== null && !isValid(nulls, i) ? null : isValid(bits, i);
};
