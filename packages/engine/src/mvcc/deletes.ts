// Deletion vectors: a commit's deleted row positions per partition, and the bitmaps scans apply.
import type { StoreContext } from '../context.js';
import type { MetaReader } from '../storage/metastore.js';
import { type DeleteRecord, deleteKey, deletePrefix } from '../storage/records.js';
import { markPositions } from './positions.js';

/** The rows of one partition that a reader must skip: bit i set = row i is deleted. */
export interface Deleted {
  /** LSB-first bitmap over the partition's rows, in a SharedArrayBuffer (workers read it in place). */
  readonly bits: Uint8Array;
  readonly count: number;
}

/** An empty bitmap over `length` rows. */
export function emptyBits(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(Math.max(8, ((length + 63) >> 6) << 3)));
}

export const isDeleted = (bits: Uint8Array, row: number): boolean => ((bits[row >> 3]! >> (row & 7)) & 1) === 1;

export function setDeleted(bits: Uint8Array, row: number): void {
  bits[row >> 3]! |= 1 << (row & 7);
}

/** The deletion records of one partition visible to a reader: their versions, ascending. */
export interface PartVersions {
  readonly table: string;
  readonly part: string;
  readonly rows: number;
  readonly versions: readonly number[];
}

/**
 * The deletion records of every partition of table `tableId` with a version at or below `version`,
 * from the keys alone (the version is in the key): no record is read.
 */
export function visibleDeletes(meta: MetaReader, tableId: string, version: number): Map<string, number[]> {
  const prefix = deletePrefix(tableId);
  const out = new Map<string, number[]>();
  for (const key of meta.keys(prefix)) {
    const slash = key.lastIndexOf('/');
    const v = Number(key.slice(slash + 1));
    if (v > version) continue;
    const part = key.slice(prefix.length, slash);
    const list = out.get(part);
    if (list) list.push(v);
    else out.set(part, [v]);
  }
  return out;
}

/**
 * The union of a partition's deletion records (all visible to one reader), cached per process:
 * records are immutable, so the newest version among them identifies the union. A miss starts from
 * the cached union of an older prefix of the records and reads only the records after it.
 */
export function deletedOf(ctx: StoreContext, meta: MetaReader, p: PartVersions): Deleted {
  const cache = cacheOf(ctx);
  const { versions } = p;
  const key = (k: number) => `${p.part}@${versions[k]!}`;
  const hit = cache.get(key(versions.length - 1));
  if (hit) return touch(cache, key(versions.length - 1), hit);
  let from = versions.length - 2;
  while (from >= 0 && !cache.has(key(from))) from--;
  const base = from >= 0 ? cache.get(key(from))! : undefined;
  const bits = emptyBits(p.rows);
  if (base) bits.set(base.bits);
  let count = base?.count ?? 0;
  for (let k = from + 1; k < versions.length; k++) {
    const record = meta.get<DeleteRecord>(deleteKey(p.table, p.part, versions[k]!));
    if (record) count += markPositions(bits, record.rows);
  }
  const out = { bits, count };
  touch(cache, key(versions.length - 1), out);
  if (cache.size > CACHED) cache.delete(cache.keys().next().value!);
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

/** Cached unions (bitmaps of partition rows / 8 bytes each). */
const CACHED = 256;

const caches = new WeakMap<StoreContext, Map<string, Deleted>>();

function cacheOf(ctx: StoreContext): Map<string, Deleted> {
  let c = caches.get(ctx);
  if (!c) caches.set(ctx, (c = new Map()));
  return c;
}

// most recently used last, so the first key is the one to evict
function touch(cache: Map<string, Deleted>, key: string, value: Deleted): Deleted {
  cache.delete(key);
  cache.set(key, value);
  return value;
}
