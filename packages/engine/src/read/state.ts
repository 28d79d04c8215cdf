// The committed state of a table at one version (visible partitions, merged deletion vectors), cached per process.
import type { StoreContext } from '../context.js';
import { type Deleted, deletedOf } from '../mvcc/deletes.js';
import { type DeleteRecord, type PartRecord, type TableRecord, deletePrefix, partPrefix } from '../storage/records.js';

/** What a reader at `version` sees of a table: its partitions in row order and their deleted rows. */
export interface TableState {
  readonly version: number;
  readonly parts: readonly PartRecord[];
  readonly deleted: ReadonlyMap<string, Deleted>;
}

/**
 * The state of `record`'s table at `record.version`, read in the caller's synchronous turn (one
 * LMDB read snapshot). Records are immutable under their keys and a version's state never changes,
 * so the last state is reused while the version stands, and after a commit only the records added
 * since are read and decoded (part records by key; deletion unions extended, see `deletedOf`).
 */
export function stateAt(ctx: StoreContext, record: TableRecord): TableState {
  const cache = cacheOf(ctx, record.id);
  if (cache.last?.version === record.version) return cache.last;
  const keys = ctx.meta.keys(partPrefix(record.id));
  const records = new Map<string, PartRecord>();
  for (const key of keys) {
    const p = cache.parts.get(key) ?? ctx.meta.get<PartRecord>(key);
    if (p) records.set(key, p);
  }
  cache.parts = records; // forgets the records of partitions that are gone
  const parts = [...records.values()].filter((p) => p.added <= record.version).sort((a, b) => a.seq - b.seq);
  const state: TableState = { version: record.version, parts, deleted: deletedAt(ctx, record, parts) };
  if ((cache.last?.version ?? -1) < record.version) cache.last = state;
  return state;
}

/** The newest state of table `tableId` a reader of this process has opened, if any (no read of the store). */
export function lastState(ctx: StoreContext, tableId: string): TableState | null {
  return caches.get(ctx)?.get(tableId)?.last ?? null;
}

// the deletion records visible at the record's version, merged per part; keys end with the zero-padded version
function deletedAt(ctx: StoreContext, record: TableRecord, parts: readonly PartRecord[]): Map<string, Deleted> {
  const prefix = deletePrefix(record.id);
  const byPart = new Map<string, string[]>();
  for (const key of ctx.meta.keys(prefix)) {
    const slash = key.lastIndexOf('/');
    if (Number(key.slice(slash + 1)) > record.version) continue;
    const part = key.slice(prefix.length, slash);
    const list = byPart.get(part);
    if (list) list.push(key);
    else byPart.set(part, [key]);
  }
  const out = new Map<string, Deleted>();
  if (byPart.size === 0) return out;
  for (const p of parts) {
    const keys = byPart.get(p.id);
    if (keys) out.set(p.id, deletedOf(ctx, p.id, p.rows, keys, (k) => ctx.meta.get<DeleteRecord>(k)));
  }
  return out;
}

interface StateCache {
  parts: Map<string, PartRecord>;
  last: TableState | null;
}

const caches = new WeakMap<StoreContext, Map<string, StateCache>>();

function cacheOf(ctx: StoreContext, tableId: string): StateCache {
  let byTable = caches.get(ctx);
  if (!byTable) caches.set(ctx, (byTable = new Map()));
  let c = byTable.get(tableId);
  if (!c) byTable.set(tableId, (c = { parts: new Map(), last: null }));
  return c;
}
