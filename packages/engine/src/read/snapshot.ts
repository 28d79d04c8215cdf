// A pinned, consistent view of a table: its record, schema and visible partitions in row order.
import type { Schema } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { HaloclineError } from '../errors.js';
import { type PartRecord, type TableRecord, partPrefix, tableKey } from '../storage/records.js';

/** What one reader sees. Call `release` once when done; files stay until then. */
export interface Snapshot {
  readonly record: TableRecord;
  readonly schema: Schema;
  readonly parts: readonly PartRecord[];
  release(): void;
}

/** Pins the latest committed version of table `name`; `NotFound` when it has no schema. */
export function openSnapshot(ctx: StoreContext, name: string): Snapshot {
  ctx.checkOpen();
  // both reads run in one synchronous turn, so they see one LMDB read snapshot
  const record = ctx.meta.get<TableRecord>(tableKey(name));
  if (!record) throw new HaloclineError('NotFound', `table "${name}" does not exist`, { table: name });
  const parts = ctx.meta
    .range<PartRecord>(partPrefix(record.id))
    .map(([, p]) => p)
    .filter((p) => p.added <= record.version)
    .sort((a, b) => a.seq - b.seq);
  const unpin = ctx.snapshots.pin(record.id, record.version);
  let released = false;
  return {
    record,
    schema: ctx.schemaOf(record),
    parts,
    release() {
      if (released) return;
      released = true;
      unpin();
      ctx.collectGarbage();
    },
  };
}
