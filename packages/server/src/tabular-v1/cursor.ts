// The continuation cursor of a tabular list: how many matching rows earlier requests already sent.
import { badRequest } from '../errors.js';

const VERSION = 1;

/** Encodes a cursor (opaque to clients). */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ v: VERSION, o: offset })).toString('base64url');
}

/** The offset of a cursor; 400 when it was not produced by this server. */
export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: unknown; o?: unknown };
    if (c.v === VERSION && typeof c.o === 'number' && Number.isSafeInteger(c.o) && c.o >= 0) return c.o;
  } catch {
    // fall through
  }
  throw badRequest(`query parameter cursor is not a cursor this server returned: ${JSON.stringify(cursor.slice(0, 40))}`, 'InvalidCursor');
}
