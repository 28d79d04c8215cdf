// Loads a partition's columns into SharedArrayBuffers (through the column cache) for scans.
import type { Data } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { PREFIX_BYTES, checkPrefix, checkSegment, decodeSegment, isChecksummed } from '../storage/format.js';
import type { PartRecord } from '../storage/records.js';
import { HaloclineError } from '../errors.js';
import { lastState } from './state.js';
import { sharedBuffer } from '../exec/shared-memory.js';

/** What reading a partition's column needs of its record. */
export type StoredPart = Pick<PartRecord, 'id' | 'file' | 'rows' | 'segments'>;

const verified = new WeakMap<StoreContext, Set<string>>();
const inflight = new WeakMap<StoreContext, Map<string, Promise<Data>>>();

/**
 * The named column of a partition. Cached unless `cache` is false (large one-off scans read
 * through, so a full-table stream does not evict the hot set or grow memory).
 */
export async function loadColumn(ctx: StoreContext, part: StoredPart, column: string, cache = true): Promise<Data> {
  const key = cacheKey(part, column);
  const hit = ctx.cache.get(key);
  if (hit) return hit.data;
  const pending = inflightOf(ctx);
  const running = pending.get(key);
  if (running) return running;
  const load = read(ctx, part, column).then((data) => {
    if (cache) ctx.cache.put(key, { data, bytes: byteSize(data) });
    return data;
  });
  pending.set(key, load);
  try {
    return await load;
  } finally {
    pending.delete(key);
  }
}

/**
 * The names of the cached columns of partitions `from` (a compaction about to replace them): read
 * from `to`, their successors, once committed (`warmColumnsOf`), the first query after a compaction
 * finds them as warm as before. Taken before the commit: the old ones leave the cache once no reader
 * can see them any more.
 */
export function cachedColumns(ctx: StoreContext, from: readonly Pick<PartRecord, 'id'>[]): string[] {
  return [...new Set(from.flatMap((p) => ctx.cache.columnsOf(p.id)))];
}

/** Reads columns `names` of partitions `to` into the cache; failures are ignored (a partition already merged away again). */
export async function warmColumnsOf(ctx: StoreContext, to: readonly StoredPart[], names: readonly string[]): Promise<void> {
  await Promise.all(to.flatMap((p) => names.filter((n) => p.segments.some((s) => s.name === n)).map((n) => loadColumn(ctx, p, n).catch(() => undefined))));
}

/**
 * The columns of table `tableId` (of `names`) that readers keep in the cache: those cached for any
 * partition of the newest state a reader of this process opened. A new delta warms only these, so
 * a table read by one column does not pay (and later reload after each merge) copies of the rest.
 */
export function hotColumns(ctx: StoreContext, tableId: string, names: readonly string[]): Set<string> {
  const parts = lastState(ctx, tableId)?.parts ?? [];
  // a schema column is cached under its own name (only derived columns share another's segment);
  // one look-up per partition in the cache's index (a probe per partition and name cost ~0.5 ms
  // of each 10k-row commit into the bench's ~60-partition `obs`)
  const hot = new Set<string>();
  const wanted = new Set(names);
  for (const p of parts) {
    for (const n of ctx.cache.namesOf(p.id)) if (wanted.delete(n)) hot.add(n);
    if (wanted.size === 0) break;
  }
  return hot;
}

/** Puts columns of a partition this process just wrote (offset-0 chunks over SharedArrayBuffers) in the cache. */
export function warmColumns(ctx: StoreContext, part: Pick<PartRecord, 'id' | 'rows' | 'segments'>, names: readonly string[], columns: readonly Data[]): void {
  names.forEach((name, i) => {
    const data = columns[i]!;
    if (data.offset === 0 && data.length === part.rows) ctx.cache.put(cacheKey(part, name), { data, bytes: byteSize(data) });
  });
}

/**
 * The named column for a scan that reads through the cache and may overwrite what it gets: the
 * cached chunk when there is one (shared: `owned` false), else a private read (`owned` true) that
 * no other reader sees (not shared with a concurrent load of the same column either).
 */
export async function loadOwned(ctx: StoreContext, part: PartRecord, column: string): Promise<{ data: Data; owned: boolean }> {
  const hit = ctx.cache.get(cacheKey(part, column));
  return hit ? { data: hit.data, owned: false } : { data: await read(ctx, part, column), owned: true };
}

/** The cache key of a partition's column: a segment stored under two names (point boxes, geo/bbox.ts) is one entry. */
export function cacheKey(part: Pick<PartRecord, 'id' | 'segments'>, column: string): string {
  const seg = part.segments.find((s) => s.name === column);
  const first = seg && part.segments.find((s) => s.offset === seg.offset);
  return `${part.id}/${first?.name ?? column}`;
}

async function read(ctx: StoreContext, part: StoredPart, column: string): Promise<Data> {
  const seg = part.segments.find((s) => s.name === column);
  if (!seg) throw new HaloclineError('Corrupt', `partition ${part.id} has no column "${column}"`, { column, path: part.file });
  await verify(ctx, part);
  const bytes = new Uint8Array(sharedBuffer(seg.length));
  await ctx.blobs.read(part.file, seg.offset, bytes);
  // the bytes as written (their CRC), before anything decodes them
  checkSegment(bytes, seg, part.file);
  const data = decodeSegment(bytes, part.file, column, seg.crc !== undefined);
  if (data.length !== part.rows) {
    throw new HaloclineError('Corrupt', `${part.file}: column "${column}" has ${data.length} rows, expected ${part.rows}`, { column, path: part.file });
  }
  return data;
}

// check each file's magic, format version and (v2) prefix CRC once per process
async function verify(ctx: StoreContext, part: StoredPart): Promise<void> {
  let seen = verified.get(ctx);
  if (!seen) verified.set(ctx, (seen = new Set()));
  if (seen.has(part.id)) return;
  const prefix = new Uint8Array(PREFIX_BYTES);
  await ctx.blobs.read(part.file, 0, prefix);
  checkPrefix(prefix, part.file, isChecksummed(part.segments));
  seen.add(part.id);
}

function inflightOf(ctx: StoreContext): Map<string, Promise<Data>> {
  let m = inflight.get(ctx);
  if (!m) inflight.set(ctx, (m = new Map()));
  return m;
}

function byteSize(data: Data): number {
  return (data.values?.byteLength ?? 0) + (data.valueOffsets?.byteLength ?? 0) + (data.nullBitmap?.byteLength ?? 0);
}
