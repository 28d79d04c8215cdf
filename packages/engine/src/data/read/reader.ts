// The contract of the column readers: one Arrow chunk in, its values as JS values out.
import type { Data } from 'apache-arrow';

/** Writes value `i` of an offset-0 chunk, as its JS form (null for nulls), to `out[i]`. */
export type ColumnReader = (data: Data, out: unknown[]) => void;

/** The validity bitmap of a chunk when it has nulls, else null (so loops can skip the test). */
export function nullsOf(data: Data): Uint8Array | null {
  return data.nullCount > 0 && data.nullBitmap && data.nullBitmap.length > 0 ? data.nullBitmap : null;
}
