// A pinned, consistent view of a table: its record, schema, visible partitions in row order and their deleted rows.
import type { Data, Schema } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { HaloclineError } from '../errors.js';
import { type Deleted, deletedOf, visibleDeletes } from '../mvcc/deletes.js';
import { type PartRecord, type TableRecord, partPrefix, tableKey } from '../storage/records.js';

/** What one reader sees. Call `release` once when done; files stay until then. */
export interface Snapshot {
  readonly record: TableRecord;
  readonly schema: Schema;
  readonly parts: readonly PartRecord[];
  /** Deleted rows of the parts that have any, by part id. */
  readonly deleted: ReadonlyMap<string, Deleted>;
  /** Columns of parts that live in memory (a transaction's own inserts), by part id then column. */
  readonly local?: ReadonlyMap<string, ReadonlyMap<string, Data>>;
  release(): void;
}

/** Rows of `part` a reader of `snap` sees. */
export function liveRows(snap: Pick<Snapshot, 'deleted'>, part: PartRecord): number {
  return part.rows - (snap.deleted.get(part.id)?.count ?? 0);
}

/** Pins the latest committed version of table `name`; `NotFound` when it has no schema. */
export function openSnapshot(ctx: StoreContext, name: string): Snapshot {
  ctx.checkOpen();
  const first = readRecord(ctx, name);
  // pin before reading the parts: a pin published to other processes re-reads with a fresh transaction
  const unpin = ctx.pin(first.id, first.version);
  // every read below runs in one synchronous turn, so they see one LMDB read snapshot
  const record = ctx.meta.get<TableRecord>(tableKey(name));
  if (!record || record.id !== first.id) {
    unpin(); // dropped or recreated in between
    return openSnapshot(ctx, name);
  }
  const parts = ctx.meta
    .range<PartRecord>(partPrefix(record.id))
    .map(([, p]) => p)
    .filter((p) => p.added <= record.version)
    .sort((a, b) => a.seq - b.seq);
  const deleted = deletedAt(ctx, record, parts);
  let released = false;
  return {
    record,
    schema: ctx.schemaOf(record),
    parts,
    deleted,
    release() {
      if (released) return;
      released = true;
      unpin();
      ctx.collectGarbage();
    },
  };
}

function readRecord(ctx: StoreContext, name: string): TableRecord {
  const record = ctx.meta.get<TableRecord>(tableKey(name));
  if (!record) throw new HaloclineError('NotFound', `table "${name}" does not exist`, { table: name });
  return record;
}

// the deletion records visible at the record's version, merged per part
function deletedAt(ctx: StoreContext, record: TableRecord, parts: readonly PartRecord[]): Map<string, Deleted> {
  const out = new Map<string, Deleted>();
  const visible = visibleDeletes(ctx.meta, record.id, record.version);
  if (visible.size === 0) return out;
  for (const p of parts) {
    const versions = visible.get(p.id);
    if (versions) out.set(p.id, deletedOf(ctx, ctx.meta, { table: record.id, part: p.id, rows: p.rows, versions }));
  }
  return out;
}
