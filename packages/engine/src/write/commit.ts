// Commits written partitions, deletion vectors and retired partitions in one metadata transaction.
import type { StoreContext } from '../context.js';
import { type CommitKind, publishCommit } from '../diagnostics.js';
import { HaloclineError } from '../errors.js';
import { firstCommon } from '../mvcc/deletes.js';
import { forwardRows, mergeRows } from '../mvcc/forward.js';
import { decodePositions, encodePositions } from '../mvcc/positions.js';
import { retireParts } from '../mvcc/retire.js';
import { lastState } from '../read/state.js';
import type { MetaTx } from '../storage/metastore.js';
import { type DeleteRecord, type ForwardRecord, type PartRecord, type TableRecord, deleteKey, deletePrefix, forwardKey, partKey, tableKey } from '../storage/records.js';
import { removeParts, type WrittenPart } from './partition.js';

/** Rows of a committed partition that a commit deletes (sorted, ascending). */
export interface PartDeletes {
  readonly part: string;
  readonly rows: Uint32Array;
  /** `rows` as `encodePositions` encodes them, when known already. */
  readonly encoded?: Uint8Array;
}

/** What a commit changes: parts to add (with their ordering seq, or next in line), parts to remove, rows to delete. */
export interface Change {
  readonly add: readonly (WrittenPart & { seq?: number })[];
  readonly remove: readonly PartRecord[];
  /** The schema version the new parts were written for; a concurrent alter makes the commit fail. */
  readonly schemaVersion: number;
  /** Set by alter: the new schema (base64 Arrow IPC), valid only if the table is still at `baseVersion`. */
  readonly alter?: { readonly schema: string; readonly baseVersion: number };
  /** Rows deleted from committed partitions. */
  readonly deletes?: readonly PartDeletes[];
  /**
   * The version the change was computed from. With it, the commit conflicts when a later commit
   * deleted any of the same rows (first committer wins) or deleted rows of a partition this change
   * removes (a compaction must not drop a concurrent delete).
   */
  readonly baseVersion?: number;
  /** Set by compaction: where the rows of each removed partition went. */
  readonly forwards?: readonly ForwardRecord[];
  /**
   * What made the commit and when it began (`performance.now()` of this thread), for the
   * diagnostics event (`diagnostics.ts`); without it the kind is `commit` and it began here.
   */
  readonly trace?: { readonly kind: CommitKind; readonly started: number };
}

/**
 * Applies `change` to table `name` (which must still be the table with id `tableId`) as one new
 * version. On failure the new files are removed and nothing is visible. Returns the new version.
 */
export async function commit(ctx: StoreContext, name: string, tableId: string, change: Change): Promise<number> {
  // the files are durable when the caller commits them
  const written = performance.now();
  let version: number;
  // encoded before the write transaction (which holds the store's write lock); rows that a merge
  // since the base forwarded elsewhere are encoded in it, as they land
  const encoded = new Map<Uint32Array, Uint8Array>();
  for (const d of change.deletes ?? []) if (d.rows.length > 0) encoded.set(d.rows, d.encoded ?? encodePositions(d.rows));
  try {
    version = await ctx.meta.write((tx) => {
      const current = tx.get<TableRecord>(tableKey(name));
      if (!current || current.id !== tableId) {
        throw new HaloclineError('NotFound', `table "${name}" does not exist (dropped while writing)`, { table: name });
      }
      // a version this process read is gone: the metadata store lost a commit. Writing on would give
      // the lost version's number to other contents (readers that cached it would see the lost one)
      const seen = lastState(ctx, tableId)?.version ?? 0;
      if (current.version < seen) {
        throw new HaloclineError(
          'Corrupt',
          `table "${name}" is at version ${current.version}, but this process read version ${seen} of it: the metadata store lost a committed change; nothing is written`,
          { table: name },
        );
      }
      if ((current.schemaVersion ?? 0) !== change.schemaVersion) {
        throw new HaloclineError('Conflict', `the schema of table "${name}" changed while writing; retry`, { table: name });
      }
      if (change.alter && current.version !== change.alter.baseVersion) {
        throw new HaloclineError('Conflict', `table "${name}" changed during alter; retry the alter`, { table: name });
      }
      const next = current.version + 1;
      for (const p of change.remove) {
        if (!tx.has(partKey(tableId, p.id))) {
          throw new HaloclineError('Conflict', `partition ${p.id} of table "${name}" changed while writing`, { table: name });
        }
        if (change.baseVersion !== undefined && newerDeletes(tx, tableId, p.id, change.baseVersion).length > 0) {
          throw new HaloclineError('Conflict', `rows of partition ${p.id} of table "${name}" were deleted while it was rewritten`, { table: name });
        }
      }
      // rows of partitions merged since the base follow the forwards; several may land in one target
      const targets = new Map<string, Uint32Array[]>();
      for (const d of change.deletes ?? []) {
        if (d.rows.length === 0) continue;
        for (const moved of forwarded(tx, name, tableId, d)) {
          const lists = targets.get(moved.part);
          if (lists) lists.push(moved.rows);
          else targets.set(moved.part, [moved.rows]);
        }
      }
      for (const [part, lists] of targets) {
        const rows = mergeRows(lists);
        applyDeletes(tx, name, tableId, { part, rows }, change.baseVersion ?? current.version, next, encoded.get(rows));
      }
      retireParts(tx, tableId, change.remove, next);
      for (const f of change.forwards ?? []) tx.put(forwardKey(tableId, f.part), f);
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
  if (change.remove.length > 0) ctx.collectGarbage();
  publishVersion(name, version, change, written);
  return version;
}

/**
 * The diagnostics event (`diagnostics.ts`) of `version` of table `name`, now durable: what `change`
 * added, removed and deleted, its files durable at `written` (also an ingest's new table, which is
 * made by a metadata write of its own).
 */
export function publishVersion(name: string, version: number, change: Pick<Change, 'add' | 'remove' | 'deletes' | 'trace'>, written: number): void {
  publishCommit(() => ({
    table: name,
    kind: change.trace?.kind ?? 'commit',
    version,
    files: change.add.length,
    rows: change.add.reduce((n, p) => n + p.rows, 0),
    deleted: (change.deletes ?? []).reduce((n, d) => n + d.rows.length, 0),
    removed: change.remove.length,
    started: change.trace?.started ?? written,
    written,
    committed: performance.now(),
  }));
}

// first committer wins: rows another commit deleted after `base` must not be deleted again
function applyDeletes(tx: MetaTx, name: string, tableId: string, d: PartDeletes, base: number, version: number, encoded = encodePositions(d.rows)): void {
  // version - 1 is the table's version now: no commit since the base, no record to check
  for (const other of base < version - 1 ? newerDeletes(tx, tableId, d.part, base) : []) {
    const row = firstCommon(d.rows, decodePositions(other.rows));
    if (row >= 0) {
      throw new HaloclineError('Conflict', `a concurrent transaction deleted or replaced the same rows of table "${name}" first; retry`, { table: name });
    }
  }
  const record: DeleteRecord = { part: d.part, version, rows: encoded, count: d.rows.length };
  tx.put(deleteKey(tableId, d.part, version), record);
}

// the deletion records of a partition committed after `base` (versions are in the keys: only those are read)
function newerDeletes(tx: MetaTx, tableId: string, part: string, base: number): DeleteRecord[] {
  const prefix = deletePrefix(tableId, part);
  // keys end with the zero-padded version: the newer ones sort from base + 1 on
  return tx.keys(prefix, deleteKey(tableId, part, base + 1)).flatMap((key) => (Number(key.slice(prefix.length)) > base ? [tx.get<DeleteRecord>(key)!] : []));
}

// follows compaction's forward records from a partition that is gone to the ones holding its rows now
function forwarded(tx: MetaTx, name: string, tableId: string, d: PartDeletes): PartDeletes[] {
  if (tx.has(partKey(tableId, d.part))) return [d];
  const f = tx.get<ForwardRecord>(forwardKey(tableId, d.part));
  const moved = f ? forwardRows(f, d.rows) : null;
  if (!moved) {
    throw new HaloclineError('Conflict', `rows this transaction deletes in table "${name}" were deleted or removed by a concurrent commit; retry`, { table: name });
  }
  return moved.flatMap((m) => forwarded(tx, name, tableId, m));
}
