// Background compaction: merges runs of small contiguous partitions into partitions of the target size.
import type { StoreContext } from '../context.js';
import { isHaloclineError } from '../errors.js';
import { loadColumn } from '../read/load.js';
import { type PartRecord, type TableRecord, partPrefix, tableKey } from '../storage/records.js';
import { concatData } from '../storage/concat.js';
import { commit } from './commit.js';
import { writePart } from './partition.js';

const running = new WeakMap<StoreContext, Map<string, { again: boolean }>>();

/** Schedules compaction of a table in the background; concurrent requests coalesce. */
export function scheduleCompaction(ctx: StoreContext, name: string, tableId: string): void {
  let byTable = running.get(ctx);
  if (!byTable) running.set(ctx, (byTable = new Map()));
  const state = byTable.get(tableId);
  if (state) {
    state.again = true;
    return;
  }
  const mine = { again: false };
  byTable.set(tableId, mine);
  ctx.background(`compact ${name}`, async () => {
    try {
      do {
        mine.again = false;
        while (await compactOnce(ctx, name, tableId));
      } while (mine.again);
    } finally {
      byTable.delete(tableId);
    }
  });
}

/** Picks the run of small partitions to merge next, or an empty list. Rows keep their order. */
export function pickRun(parts: readonly PartRecord[], partitionRows: number, compactRun: number): PartRecord[] {
  const small = (p: PartRecord) => p.rows < partitionRows / 4;
  for (let i = 0; i < parts.length; i++) {
    if (!small(parts[i]!)) continue;
    let j = i;
    while (j < parts.length && small(parts[j]!)) j++;
    if (j - i >= compactRun) {
      const run: PartRecord[] = [];
      let rows = 0;
      for (let k = i; k < j && rows + parts[k]!.rows <= partitionRows; k++) {
        run.push(parts[k]!);
        rows += parts[k]!.rows;
      }
      if (run.length >= 2) return run;
    }
    i = j;
  }
  return [];
}

/** One merge step; true when something was merged. */
export async function compactOnce(ctx: StoreContext, name: string, tableId: string): Promise<boolean> {
  const record = ctx.meta.get<TableRecord>(tableKey(name));
  if (!record || record.id !== tableId) return false;
  const parts = ctx.meta.range<PartRecord>(partPrefix(tableId)).map(([, p]) => p).filter((p) => p.added <= record.version);
  parts.sort((a, b) => a.seq - b.seq);
  const run = pickRun(parts, ctx.options.partitionRows, ctx.options.compactRun);
  if (run.length === 0) return false;
  const schema = ctx.schemaOf(record);
  const release = ctx.snapshots.pin(tableId, record.version);
  let written;
  try {
    const columns = await Promise.all(
      schema.fields.map(async (f) => concatData(f.type, await Promise.all(run.map((p) => loadColumn(ctx, p, f.name, false))))),
    );
    written = await writePart(ctx, tableId, schema, columns);
  } finally {
    release();
  }
  try {
    await commit(ctx, name, tableId, { add: [{ ...written, seq: run[0]!.seq }], remove: run, schemaVersion: record.schemaVersion ?? 0 });
  } catch (e) {
    // commit removed the new file; the table was dropped or changed underneath: nothing to compact
    if (isHaloclineError(e, 'NotFound') || isHaloclineError(e, 'Conflict')) return false;
    throw e;
  }
  return true;
}
