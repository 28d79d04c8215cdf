// Executes a plan over a snapshot: partitions in parallel on the executor, results in row order.
import { type Data, RecordBatch, Struct, makeData } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { resultData, taskColumn } from '../exec/arrays.js';
import { sortedRange } from '../exec/narrow.js';
import { gather } from '../exec/gather.js';
import type { ScanTask, TaskColumn } from '../exec/task.js';
import type { Deleted } from '../mvcc/deletes.js';
import type { PartRecord } from '../storage/records.js';
import { loadColumn, loadOwned } from './load.js';
import type { Plan } from './plan.js';
import { type Snapshot, liveRows } from './snapshot.js';

/** Streams the matching rows as record batches, one per partition with matches, in row order. */
export async function* scanBatches(ctx: StoreContext, snap: Snapshot, plan: Plan): AsyncGenerator<RecordBatch> {
  const parts = candidates(snap, plan);
  // a partition with deleted rows and no filter to apply is copied whole: it counts twice, cached and copied
  const copied = (p: PartRecord) => snap.deleted.has(p.id) && (plan.filter === null || plan.allMatch(p.zones));
  const cache = !oversized(ctx, parts, plan, needed(plan), copied);
  const window = Math.max(2, 2 * (ctx.pool?.concurrency ?? 1));
  const queue: Promise<RecordBatch | null>[] = [];
  let next = 0;
  const fill = () => {
    while (queue.length < window && next < parts.length) {
      const p = selectPart(ctx, snap, parts[next++]!, plan, cache, parts.length > 1);
      p.catch(() => undefined); // surfaced when awaited in order
      queue.push(p);
    }
  };
  fill();
  while (queue.length > 0) {
    const batch = await queue.shift()!;
    fill();
    if (batch && batch.numRows > 0) yield batch;
  }
}

/** Counts the matching rows without materialising them. */
export async function scanCount(ctx: StoreContext, snap: Snapshot, plan: Plan): Promise<number> {
  const parts = candidates(snap, plan);
  // partitions whose zone maps prove every row matches count their live rows, no scan
  const scanned = plan.filter === null ? [] : parts.filter((p) => !plan.allMatch(p.zones));
  const known = parts.reduce((n, p) => n + (scanned.includes(p) ? 0 : liveRows(snap, p)), 0);
  if (scanned.length === 0) return known;
  const cache = !oversized(ctx, scanned, plan, plan.filter!.columns);
  const counts = await Promise.all(
    scanned.map(async (part) => (await run(ctx, part, await task(ctx, snap, part, plan, 'count', cache), scanned.length > 1)).count),
  );
  return counts.reduce((a, b) => a + b, known);
}

/** The matches of one partition: their row positions and, when asked, their projected rows. */
export interface PartMatches {
  readonly part: PartRecord;
  readonly rows: Int32Array;
  readonly batch: RecordBatch | null;
}

/** Finds the matching rows of every partition (for deletes and replaces), partitions in row order. */
export async function scanMatches(ctx: StoreContext, snap: Snapshot, plan: Plan, withData: boolean): Promise<PartMatches[]> {
  const out = await Promise.all(matchEach(ctx, snap, plan, withData));
  return out.filter((m) => m.rows.length > 0);
}

/**
 * The matches of each candidate partition (some may have no rows), in row order, all started at once
 * against `snap`: a replace takes each as it completes while the later ones are still scanned. A
 * rejection is observed here (no unhandled rejection when the caller stops early) and surfaces
 * where its promise is awaited.
 */
export function matchEach(ctx: StoreContext, snap: Snapshot, plan: Plan, withData: boolean): Promise<PartMatches>[] {
  const parts = candidates(snap, plan);
  const cache = !oversized(ctx, parts, plan, withData ? needed(plan) : (plan.filter?.columns ?? []));
  return parts.map((part) => {
    const p = matchPart(ctx, snap, part, plan, withData, cache, parts.length > 1);
    p.catch(() => undefined);
    return p;
  });
}

async function matchPart(ctx: StoreContext, snap: Snapshot, part: PartRecord, plan: Plan, withData: boolean, cache: boolean, parallel: boolean): Promise<PartMatches> {
  // a delete needs only the filter's columns; a replace needs the rows too
  const t = await task(ctx, snap, part, plan, withData ? 'select' : 'match', cache);
  const result = await run(ctx, part, { ...t, mode: 'select', withRows: true }, parallel);
  const rows = result.rows ?? new Int32Array(0);
  const batch = withData && result.columns ? batchOf(plan, result.count, plan.output.fields.map((f, i) => resultData(f.type, result.count, result.columns![i]!))) : null;
  return { part, rows, batch };
}

/** The partitions of a snapshot that may hold live matching rows (R-tree, then zone maps). */
export function candidates(snap: Snapshot, plan: Plan): PartRecord[] {
  if (plan.empty) return [];
  const parts = plan.spatial ? plan.spatial(snap.parts) : snap.parts;
  return parts.filter((p) => liveRows(snap, p) > 0 && plan.mayMatch(p.zones));
}

/** A column of a partition: a transaction's in-memory part, or the file through the cache. */
export function columnOf(ctx: StoreContext, snap: Snapshot, part: PartRecord, name: string, cache: boolean): Promise<Data> {
  const local = snap.local?.get(part.id)?.get(name);
  return local ? Promise.resolve(local) : loadColumn(ctx, part, name, cache);
}

function ownedColumnOf(ctx: StoreContext, snap: Snapshot, part: PartRecord, name: string): Promise<{ data: Data; owned: boolean }> {
  const local = snap.local?.get(part.id)?.get(name);
  return local ? Promise.resolve({ data: local, owned: false }) : loadOwned(ctx, part, name);
}

// a scan that needs more than the whole cache reads through it instead of flushing it
export function oversized(ctx: StoreContext, parts: readonly PartRecord[], plan: Plan, columns: readonly string[], copied: (p: PartRecord) => boolean = () => false): boolean {
  const share = columns.length / Math.max(1, plan.schema.fields.length);
  const bytes = parts.reduce((n, p) => n + p.bytes * (copied(p) ? 2 : 1), 0) * share;
  return bytes > ctx.options.cacheBytes;
}

function needed(plan: Plan, filter = plan.filter): string[] {
  const names = new Set(plan.output.fields.map((f) => f.name));
  for (const c of filter?.columns ?? []) names.add(c);
  return [...names];
}

async function selectPart(ctx: StoreContext, snap: Snapshot, part: PartRecord, plan: Plan, cache: boolean, parallel: boolean): Promise<RecordBatch | null> {
  if ((plan.filter === null || plan.allMatch(part.zones)) && !snap.deleted.has(part.id)) {
    // every row: the cached chunks are the result, no scan needed
    const children = await Promise.all(plan.output.fields.map((f) => columnOf(ctx, snap, part, f.name, cache)));
    return batchOf(plan, part.rows, children);
  }
  const result = await run(ctx, part, await task(ctx, snap, part, plan, 'select', cache), parallel);
  if (result.count === 0 || !result.columns) return null;
  const children = plan.output.fields.map((f, i) => resultData(f.type, result.count, result.columns![i]!));
  return batchOf(plan, result.count, children);
}

// 'match': the filter's columns only, for row positions (no projection, no deleted rows' values)
async function task(ctx: StoreContext, snap: Snapshot, part: PartRecord, plan: Plan, kind: ScanTask['mode'] | 'match', cache: boolean): Promise<ScanTask> {
  const mode = kind === 'match' ? 'count' : kind;
  // every row matches: no kernel, only the deleted rows drop out
  const filter = plan.filter !== null && plan.allMatch(part.zones) ? null : plan.filter;
  const names = mode === 'count' ? [...(filter?.columns ?? [])] : needed(plan, filter);
  // a select reading through the cache owns what it reads: the selected rows are compacted in place
  const own = mode === 'select' && !cache;
  const loaded = await Promise.all(names.map((n) => (own ? ownedColumnOf(ctx, snap, part, n) : columnOf(ctx, snap, part, n, cache).then((data) => ({ data, owned: false })))));
  const columns: Record<string, TaskColumn> = {};
  names.forEach((name, i) => (columns[name] = { ...taskColumn(loaded[i]!.data), owned: loaded[i]!.owned }));
  const project = mode === 'count' ? [] : plan.output.fields.map((f) => f.name);
  const deleted = snap.deleted.get(part.id);
  const deletedColumns = kind === 'count' && filter !== null && deleted?.rows ? deletedColumnsOf(deleted, deleted.rows, columns) : null;
  return { mode, length: part.rows, filter, columns, project, deleted: deleted?.bits ?? null, deletedRows: kind === 'count' ? (deleted?.rows ?? null) : null, deletedColumns, ...sortedBy(part, filter) };
}

/** The sort column of a partition when the filter reads it (the scan narrows to the rows it can match). */
export const sortedBy = (part: PartRecord, filter: ScanTask['filter']): { sortedBy?: string } =>
  part.sortedBy !== undefined && filter?.columns.includes(part.sortedBy) ? { sortedBy: part.sortedBy } : {};

// the values of the deleted rows, per deletion vector and column: a count subtracts their matches (see exec/scan.ts)
const gathered = new WeakMap<Deleted, Map<string, TaskColumn>>();

function deletedColumnsOf(deleted: Deleted, rows: Int32Array, columns: Readonly<Record<string, TaskColumn>>): Record<string, TaskColumn> {
  let byColumn = gathered.get(deleted);
  if (!byColumn) gathered.set(deleted, (byColumn = new Map()));
  const out: Record<string, TaskColumn> = {};
  for (const [name, column] of Object.entries(columns)) {
    let g = byColumn.get(name);
    if (!g) byColumn.set(name, (g = { ...gather(column, rows, rows.length), width: column.width }));
    out[name] = g;
  }
  return out;
}

// the pool pays only when partitions run side by side and each is big enough to hide the round
// trip: a sorted partition counts the rows of its range (found here, once)
export function run(ctx: StoreContext, part: PartRecord, t: ScanTask, parallel: boolean) {
  const rowRange = t.sortedBy !== undefined && t.rowRange === undefined ? sortedRange(t) : (t.rowRange ?? null);
  const rows = rowRange === null ? part.rows : rowRange[1] - rowRange[0];
  // a narrowed range under an exact geometry predicate stays on the pool unless it is tiny: its rows
  // are the query box's candidates, each costly, which partitions running side by side share
  // between the workers; under comparisons only, a range is as cheap per row as a whole partition
  const costly = rowRange !== null && t.filter?.exact === true;
  const inline = rows < (costly ? ctx.options.inlineRows >> 4 : ctx.options.inlineRows);
  const executor = ctx.pool !== null && parallel && !inline ? ctx.pool : ctx.inline;
  const end = ctx.reads.begin();
  return executor.run(t.sortedBy === undefined ? t : { ...t, rowRange }).finally(end);
}


function batchOf(plan: Plan, length: number, children: Data[]): RecordBatch {
  return new RecordBatch(plan.output, makeData({ type: new Struct(plan.output.fields), length, nullCount: 0, children }));
}
