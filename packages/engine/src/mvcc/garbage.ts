// Garbage collection: files of retired partitions go once no reader in any process can see them.
import type { StoreContext } from '../context.js';
import { type GarbageRecord, forwardKey, garbagePrefix } from '../storage/records.js';

/**
 * Removes the files (and compaction forward records) of garbage entries retired at or below `floor(table)` (the lowest version any
 * live reader of the table has pinned, Infinity when none), then the entries. Safe to run in
 * several processes at once: removing a missing file or entry is harmless.
 */
export async function collectGarbage(ctx: StoreContext, floor: (tableId: string) => number): Promise<void> {
  const entries = ctx.meta.range<GarbageRecord>(garbagePrefix);
  if (entries.length === 0) return;
  const floors = new Map<string, number>();
  const done = entries.filter(([, g]) => {
    if (!floors.has(g.table)) floors.set(g.table, floor(g.table));
    return g.retired <= floors.get(g.table)!;
  });
  if (done.length === 0) return;
  for (const [, g] of done) ctx.cache.dropPart(g.part);
  await Promise.all(done.map(([, g]) => ctx.blobs.remove(g.file)));
  await ctx.meta.write((tx) => {
    // no transaction that began before the retirement is left to follow a forward record
    for (const [key, g] of done) {
      tx.remove(key);
      tx.remove(forwardKey(g.table, g.part));
    }
  });
}
