// HTTP Range (RFC 9110 §14): one `bytes=` range of a file of known size.
import { ApiError } from '../errors.js';

/** An inclusive byte range. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * The range a `Range` header asks for, undefined for the whole file (absent, or several ranges, which
 * the server answers with the whole file as RFC 9110 allows); 416 when unsatisfiable.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return undefined;
  const [, a, b] = m;
  let start: number;
  let end: number;
  if (a === '' && b === '') return undefined;
  if (a === '') {
    start = Math.max(0, size - Number(b));
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start >= size || start > end) throw new ApiError(416, 'RangeNotSatisfiable', `range ${header} is outside the file of ${size} bytes`, {});
  return { start, end };
}
