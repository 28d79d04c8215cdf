// Retiring partitions inside a metadata transaction: the record and its deletion vectors go, a garbage entry stays.
import type { MetaTx } from '../storage/metastore.js';
import { type GarbageRecord, type PartRecord, deletePrefix, garbageKey, partKey } from '../storage/records.js';

/**
 * Removes `parts` of table `tableId` from the committed state as of `version` (Infinity when the
 * table is dropped) and records their files as garbage: any process removes a file once no reader
 * in any process is pinned below `version` (see mvcc/garbage.ts).
 */
export function retireParts(tx: MetaTx, tableId: string, parts: readonly Pick<PartRecord, 'id' | 'file'>[], version: number): void {
  for (const p of parts) {
    tx.remove(partKey(tableId, p.id));
    for (const key of tx.keys(deletePrefix(tableId, p.id))) tx.remove(key);
    const entry: GarbageRecord = { table: tableId, part: p.id, file: p.file, retired: version };
    tx.put(garbageKey(tableId, p.id), entry);
  }
}
