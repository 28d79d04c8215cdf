// Commits written partitions (and retires replaced ones) in one metadata transaction.
import type { StoreContext } from '../context.js';
import { HaloclineError } from '../errors.js';
import { type PartRecord, type TableRecord, partKey, tableKey } from '../storage/records.js';
import { removeParts, type WrittenPart } from './partition.js';

/** What a commit changes: parts to add (with their ordering seq, or next in line) and parts to remove. */
export interface Change {
  readonly add: readonly (WrittenPart & { seq?: number })[];
  readonly remove: readonly PartRecord[];
  /** The schema version the new parts were written for; a concurrent alter makes the commit fail. */
  readonly schemaVersion: number;
  /** Set by alter: the new schema (base64 Arrow IPC), valid only if the table is still at `baseVersion`. */
  readonly alter?: { readonly schema: string; readonly baseVersion: number };
}

/**
 * Applies `change` to table `name` (which must still be the table with id `tableId`) as one new
 * version. On failure the new files are removed and nothing is visible. Returns the new version.
 */
export async function commit(ctx: StoreContext, name: string, tableId: string, change: Change): Promise<number> {
  let version: number;
  try {
    version = await ctx.meta.write((tx) => {
      const current = tx.get<TableRecord>(tableKey(name));
      if (!current || current.id !== tableId) {
        throw new HaloclineError('NotFound', `table "${name}" does not exist (dropped while writing)`, { table: name });
      }
      if ((current.schemaVersion ?? 0) !== change.schemaVersion) {
        throw new HaloclineError('Conflict', `the schema of table "${name}" changed while writing; retry`, { table: name });
      }
      if (change.alter && current.version !== change.alter.baseVersion) {
        throw new HaloclineError('Conflict', `table "${name}" changed during alter; retry the alter`, { table: name });
      }
      for (const p of change.remove) {
        if (!tx.get(partKey(tableId, p.id))) {
          throw new HaloclineError('Conflict', `partition ${p.id} of table "${name}" changed while writing`, { table: name });
        }
        tx.remove(partKey(tableId, p.id));
      }
      const next = current.version + 1;
      let seq = current.nextSeq;
      for (const p of change.add) {
        const record: PartRecord = { ...p, seq: p.seq ?? seq++, added: next };
        tx.put(partKey(tableId, p.id), record);
      }
      const schema = change.alter ? { schema: change.alter.schema, schemaVersion: change.schemaVersion + 1 } : {};
      tx.put(tableKey(name), { ...current, ...schema, version: next, nextSeq: seq });
      return next;
    });
  } catch (e) {
    await removeParts(ctx, change.add);
    throw e;
  }
  if (change.remove.length > 0) {
    ctx.snapshots.retire(tableId, version, change.remove);
    ctx.collectGarbage();
  }
  return version;
}
