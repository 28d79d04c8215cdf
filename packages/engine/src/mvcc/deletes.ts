// Deletion vectors: a commit's deleted row positions per partition, and the bitmaps scans apply.
import type { StoreContext } from '../context.js';
import type { DeleteRecord } from '../storage/records.js';

/** The rows of one partition that a reader must skip: bit i set = row i is deleted. */
export interface Deleted {
  /** LSB-first bitmap over the partition's rows, in a SharedArrayBuffer (workers read it in place). */
  readonly bits: Uint8Array;
  readonly count: number;
}

/** Sorted row positions as stored in a DeleteRecord. */
export function encodeRows(rows: Uint32Array): string {
  return Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength).toString('base64');
}

export function decodeRows(encoded: string): Uint32Array {
  const bytes = Buffer.from(encoded, 'base64');
  const out = new Uint32Array(bytes.length >> 2);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

/** An empty bitmap over `length` rows. */
export function emptyBits(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(Math.max(8, ((length + 63) >> 6) << 3)));
}

export const isDeleted = (bits: Uint8Array, row: number): boolean => ((bits[row >> 3]! >> (row & 7)) & 1) === 1;

export function setDeleted(bits: Uint8Array, row: number): void {
  bits[row >> 3]! |= 1 << (row & 7);
}

/**
 * The union of a partition's deletion records (all visible to one reader), cached per process:
 * records are immutable, so the newest version among them identifies the union.
 */
export function deletedOf(ctx: StoreContext, part: string, rows: number, records: readonly DeleteRecord[]): Deleted {
  const newest = records.reduce((v, r) => Math.max(v, r.version), 0);
  const key = `${part}@${newest}#${records.length}`;
  const cache = cacheOf(ctx);
  const hit = cache.get(key);
  if (hit) return hit;
  const bits = emptyBits(rows);
  let count = 0;
  for (const r of records) {
    for (const row of decodeRows(r.rows)) {
      if (!isDeleted(bits, row)) count++;
      setDeleted(bits, row);
    }
  }
  const out = { bits, count };
  if (cache.size >= 256) cache.delete(cache.keys().next().value!);
  cache.set(key, out);
  return out;
}

/** The first row present in both sorted lists, or -1. */
export function firstCommon(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! === b[j]!) return a[i]!;
    if (a[i]! < b[j]!) i++;
    else j++;
  }
  return -1;
}

const caches = new WeakMap<StoreContext, Map<string, Deleted>>();

function cacheOf(ctx: StoreContext): Map<string, Deleted> {
  let c = caches.get(ctx);
  if (!c) caches.set(ctx, (c = new Map()));
  return c;
}
