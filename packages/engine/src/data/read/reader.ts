// The contract of the column readers: one Arrow chunk in, JS values out (into rows or an array).
import type { Data } from 'apache-arrow';

/** Where a reader puts value `i`: `dst[i][key]` of row objects, or `dst[i]` when `key` is null. */
export interface ValueSink {
  readonly dst: unknown[];
  readonly key: string | null;
}

/** Reads every value of an offset-0 chunk as its JS form (null for nulls) into the sink. */
export type ColumnReader = (data: Data, sink: ValueSink) => void;

/** Stores value `i` into a sink (inlined by V8 in the readers' loops). */
export function put(dst: unknown[], key: string | null, i: number, v: unknown): void {
  if (key === null) dst[i] = v;
  else (dst[i] as Record<string, unknown>)[key] = v;
}

/** The validity bitmap of a chunk when it has nulls, else null (so loops can skip the test). */
export function nullsOf(data: Data): Uint8Array | null {
  return data.nullCount > 0 && data.nullBitmap && data.nullBitmap.length > 0 ? data.nullBitmap : null;
}
