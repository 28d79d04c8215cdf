// Background compaction: merges runs of small contiguous partitions into partitions of the target size, dropping deleted rows.
import type { StoreContext } from '../context.js';
import { isHaloclineError } from '../errors.js';
import type { Data, RecordBatch } from 'apache-arrow';
import { scanBatches } from '../read/execute.js';
import { cachedColumns, loadColumn, warmColumns, warmColumnsOf } from '../read/load.js';
import { plan } from '../read/plan.js';
import { type Snapshot, liveRows, openSnapshot } from '../read/snapshot.js';
import { concatForwards } from '../mvcc/forward.js';
import type { ForwardRecord, PartRecord } from '../storage/records.js';
import { concatData } from '../storage/concat.js';
import type { ZoneStats } from '../expr/kernel.js';
import { mergeZones } from '../ingest/accumulate.js';
import { commit } from './commit.js';
import { type WrittenPart, mergeParts, sliceColumns, writePart } from './partition.js';
import { splitColumns } from './split-key.js';
import { pickTier, writeTier } from './tiers.js';

const QUIET_MS = 10;
const MAX_DEFER_MS = 1000;
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
      // after the commit that scheduled it has returned to its caller: started at once, picking the
      // run and setting up the merge (~3 ms: a snapshot, its zone maps, the inputs) ran in the
      // microtasks before the caller's, inside the commit's time
      await new Promise<void>((resolve) => setImmediate(resolve));
      do {
        mine.again = false;
        for (;;) {
          // each merge step waits for a pause in this process's scans (at most a second): reads come first
          await ctx.reads.quiet(QUIET_MS, MAX_DEFER_MS);
          if (!(await compactOnce(ctx, name, tableId))) break;
        }
      } while (mine.again);
    } finally {
      byTable.delete(tableId);
    }
  });
}

/**
 * Picks the run of small partitions to merge next (small by live rows), else a partition with more
 * than a quarter of its rows deleted to rewrite alone, else an empty list. Rows keep their order.
 * A run is size-tiered: `compactRun` or more contiguous small partitions within `SIMILAR`× of each
 * other's size, so a stream of equal deltas is merged in steps of `compactRun`× (each row rewritten
 * about log(partitionRows / delta) / log(compactRun) times) instead of one growing tail re-merged
 * with every few deltas; a run of `2 × compactRun` small partitions that never line up merges anyway.
 * A `damaged` partition is never picked: it splits runs like a full one (rows keep their order).
 */
export function pickRun(
  parts: readonly PartRecord[],
  partitionRows: number,
  compactRun: number,
  live: (p: PartRecord) => number = (p) => p.rows,
  damaged: (p: PartRecord) => boolean = () => false,
): PartRecord[] {
  const small = (p: PartRecord) => live(p) < partitionRows / 4 && !damaged(p);
  for (let i = 0; i < parts.length; i++) {
    if (!small(parts[i]!)) continue;
    let j = i;
    while (j < parts.length && small(parts[j]!)) j++;
    const found = j - i >= compactRun ? (similarRun(parts.slice(i, j), compactRun, live) ?? (j - i >= 2 * compactRun ? parts.slice(i, j) : null)) : null;
    const run: PartRecord[] = [];
    let rows = 0;
    for (const p of found ?? []) {
      if (rows + live(p) > partitionRows) break;
      run.push(p);
      rows += live(p);
    }
    if (run.length >= 2) return run;
    i = j;
  }
  const sparse = parts.find((p) => p.rows - live(p) > p.rows / 4 && !damaged(p));
  return sparse ? [sparse] : [];
}

/** Inputs of a tiered merge lie within this ratio of each other's live rows. */
export const SIMILAR = 2;

// the first window of at least `compactRun` contiguous partitions of similar size, as long as it stays so
function similarRun(parts: readonly PartRecord[], compactRun: number, live: (p: PartRecord) => number): PartRecord[] | null {
  for (let k = 0; k + compactRun <= parts.length; k++) {
    let lo = Number.POSITIVE_INFINITY;
    let hi = 0;
    let end = k;
    for (; end < parts.length; end++) {
      const n = Math.max(1, live(parts[end]!));
      if (Math.max(hi, n) > SIMILAR * Math.min(lo, n)) break;
      lo = Math.min(lo, n);
      hi = Math.max(hi, n);
    }
    if (end - k >= compactRun) return parts.slice(k, end);
  }
  return null;
}

/** One merge step; true when something was merged. Deleted rows are left out of the merged partition. */
export async function compactOnce(ctx: StoreContext, name: string, tableId: string): Promise<boolean> {
  const started = performance.now();
  let snap: Snapshot;
  try {
    snap = openSnapshot(ctx, name);
  } catch (e) {
    if (isHaloclineError(e, 'NotFound')) return false;
    throw e;
  }
  let run: PartRecord[];
  let written: WrittenPart[];
  let forwards: ForwardRecord[];
  // columns the cache holds for the inputs, and those of them the part writer sent back as written
  let warm: string[] = [];
  const warmed: Warmed[] = [];
  try {
    if (snap.record.id !== tableId) return false;
    const live = (p: PartRecord) => liveRows(snap, p);
    const damaged = (p: PartRecord) => ctx.damaged.has(p.file);
    const indexed = splitColumns(snap.schema.fields).length > 0;
    // (a tiered table's rows have no order to keep: its damaged partitions just stay out)
    const tier = indexed ? pickTier(snap.parts.filter((p) => !damaged(p)), ctx.options.partitionRows, ctx.options.compactRun, live) : null;
    // indexed tables merge by tiers; otherwise (and for rewrites of partitions with many deletes) contiguous runs
    run = tier ? [...tier.inputs] : pickRun(snap.parts, ctx.options.partitionRows, indexed ? Number.POSITIVE_INFINITY : ctx.options.compactRun, live, damaged);
    if (run.length === 0) return false;
    warm = cachedColumns(ctx, run);
    try {
      // forwards tell transactions deleting in the inputs meanwhile where each row went
      if (tier) ({ written, forwards } = await writeTier(ctx, snap, tier, warm, (w) => warmed.push(w)));
      else {
        written = await rewrite(ctx, snap, run, warm, (w) => warmed.push(w));
        forwards = concatForwards(snap, run, written[0]?.id ?? null);
      }
    } catch (e) {
      // a damaged input fails every merge of it (nothing was written): reported once, then left out
      const bad = isHaloclineError(e, 'Corrupt') ? run.find((p) => namesFile(e.path, p.file)) : undefined;
      if (!bad) throw e;
      ctx.damaged.add(bad.file);
      ctx.report(e, `compact ${name} (the damaged file is left out of compaction from now on)`);
      return true;
    }
  } finally {
    snap.release();
  }
  try {
    const add = written.map((w) => ({ ...w, seq: 'seq' in w && typeof w.seq === 'number' ? w.seq : run[0]!.seq, level: w.level ?? run[0]!.level, run: w.run ?? run[0]!.run }));
    await commit(ctx, name, tableId, { add, remove: run, forwards, baseVersion: snap.record.version, schemaVersion: snap.record.schemaVersion ?? 0, trace: { kind: 'compaction', started } });
    for (const w of warmed) warmColumns(ctx, w.part, w.names, w.columns);
    // what the writer did not send back (inline tier merges' partitions, derived box columns) is read from the new files
    await Promise.all(
      written.map((p) => {
        const sent = warmed.find((w) => w.part === p)?.names ?? [];
        return warmColumnsOf(ctx, [p], warm.filter((n) => !sent.includes(n)));
      }),
    );
  } catch (e) {
    // commit removed the new file; the table was dropped or changed underneath (a concurrent delete
    // in the run wins): nothing lost, the next trigger retries
    if (isHaloclineError(e, 'NotFound') || isHaloclineError(e, 'Conflict')) return false;
    throw e;
  }
  return true;
}

// whether an error's path (as the reader saw it: relative to the store, or absolute) is the partition file `file`
const namesFile = (path: unknown, file: string): boolean => typeof path === 'string' && (path === file || path.endsWith(`/${file}`));

/** Columns of a merged partition the part writer sent back as written, for the cache once committed. */
interface Warmed {
  readonly part: WrittenPart;
  readonly names: readonly string[];
  readonly columns: readonly Data[];
}

// the live rows of the run as one partition (none when every row is deleted); rows keep their order,
// so a single partition sorted by a column stays sorted by it. With a part writer, its thread reads
// the inputs and drops the deleted rows: the caller's thread only waits, and gets the `warm` columns
// back as written (`onWarm`), so it does not read them back from the new file.
async function rewrite(ctx: StoreContext, snap: Snapshot, run: readonly PartRecord[], warm: readonly string[], onWarm: (w: Warmed) => void): Promise<WrittenPart[]> {
  const schema = snap.schema;
  const order = run.length === 1 && run[0]!.sortedBy !== undefined ? { sortedBy: run[0]!.sortedBy } : {};
  const clean = run.every((p) => !snap.deleted.has(p.id));
  if (!clean && run.every((p) => liveRows(snap, p) === 0)) return [];
  if (ctx.partWriter) {
    const inputs = run.map((p) => ({ ...p, deleted: snap.deleted.get(p.id)?.bits }));
    const merged = await mergeParts(ctx, ctx.partWriter, snap.record.id, schema, inputs, clean ? mergedZones(run) : undefined, warm);
    const part = { ...merged.written, ...order };
    if (merged.warm.names.length > 0) onWarm({ part, ...merged.warm });
    return [part];
  }
  if (clean) {
    const columns = await Promise.all(
      schema.fields.map(async (f) => concatData(f.type, await Promise.all(run.map((p) => loadColumn(ctx, p, f.name, false))))),
    );
    return [{ ...(await writePart(ctx, snap.record.id, schema, columns, mergedZones(run))), ...order }];
  }
  const batches: RecordBatch[] = [];
  for await (const b of scanBatches(ctx, { ...snap, parts: run }, plan(schema, snap.record.name, undefined))) batches.push(b);
  const rows = batches.reduce((n, b) => n + b.numRows, 0);
  return [{ ...(await writePart(ctx, snap.record.id, schema, sliceColumns(schema, batches, 0, rows), undefined, true)), ...order }];
}

/**
 * The zone maps of the concatenation of whole partitions, from theirs (no pass over the rows). A
 * column whose NaN count some input lacks (written before NaNs were counted) is left to a pass.
 */
export function mergedZones(parts: readonly PartRecord[]): Record<string, ZoneStats> {
  const out: Record<string, ZoneStats> = {};
  for (const name of Object.keys(parts[0]?.zones ?? {})) {
    const zones = parts.map((p) => p.zones[name]);
    if (zones.some((z) => z === undefined)) continue;
    const merged = zones.reduce<ZoneStats | undefined>((a, z) => mergeZones(a, z!), undefined)!;
    if (merged.nanCount === undefined && zones.some((z) => z!.nanCount !== undefined)) continue;
    out[name] = merged;
  }
  return out;
}
