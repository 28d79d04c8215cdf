// Keyset page tokens: the sort values and id of the item a page ends (next) or starts (prev) at.
import { invalid } from '../errors.js';
import type { SortKey, SortValue } from './sort.js';

/**
 * A position in the result order. Pages continue strictly after (next) or before (prev) this key,
 * so items inserted or deleted between requests never shift the pages: no repeats, no gaps.
 */
export interface PageToken {
  readonly direction: 'next' | 'prev';
  readonly values: readonly SortValue[];
  readonly id: string;
}

/** Encodes a token (base64url JSON, tagged with the sort it belongs to). */
export function encodeToken(token: PageToken, sortby: readonly SortKey[]): string {
  return Buffer.from(JSON.stringify({ d: token.direction === 'next' ? 'n' : 'p', v: token.values, i: token.id, s: signature(sortby) })).toString('base64url');
}

/**
 * Decodes a token; one that is malformed or was made for another sortby is a 400.
 * @example
 * decodeToken(encodeToken(t, []), []) // t
 */
export function decodeToken(text: unknown, sortby: readonly SortKey[]): PageToken {
  if (typeof text !== 'string' || text.length > 4096) throw invalid('token', 'must be a token from a next or prev link');
  let o: { d?: unknown; v?: unknown; i?: unknown; s?: unknown };
  try {
    o = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid('token', 'is not a token from a next or prev link');
  }
  const values = o?.v;
  if ((o?.d !== 'n' && o?.d !== 'p') || typeof o.i !== 'string' || !Array.isArray(values) || !values.every(isSortValue)) {
    throw invalid('token', 'is not a token from a next or prev link');
  }
  if (o.s !== signature(sortby) || values.length !== sortby.length + 1) throw invalid('token', 'belongs to a search with another sortby; keep sortby when following links');
  return { direction: o.d === 'n' ? 'next' : 'prev', values, id: o.i };
}

function signature(sortby: readonly SortKey[]): string {
  return sortby.map((k) => `${k.direction === 'desc' ? '-' : '+'}${k.field.replace(/^properties\./, '')}`).join(',');
}

function isSortValue(v: unknown): v is SortValue {
  return v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}
