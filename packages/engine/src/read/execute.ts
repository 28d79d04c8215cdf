// Executes a plan over a snapshot: partitions in parallel on the executor, results in row order.
import { type Data, RecordBatch, Struct, makeData } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { resultData, taskColumn } from '../exec/arrays.js';
import { ascending, sortedRange } from '../exec/narrow.js';
import { gather } from '../exec/gather.js';
import { SKETCH_MIN_ROWS, type Sketch, emptySketch, rangeFilter, sketchBytes, sketchCost, worthSketching } from '../exec/sketch.js';
import type { ScanResult, ScanTask, TaskColumn } from '../exec/task.js';
import type { Deleted } from '../mvcc/deletes.js';
import type { PartRecord } from '../storage/records.js';
import { cacheKey, loadColumn, loadOwned } from './load.js';
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
  // partitions whose zone maps prove every row matches count their live rows, no scan
  const scanned: PartRecord[] = [];
  let known = 0;
  for (const p of candidates(snap, plan)) {
    if (plan.filter === null || plan.allMatch(p.zones)) known += liveRows(snap, p);
    else scanned.push(p);
  }
  if (scanned.length === 0) return known;
  const cache = !oversized(ctx, scanned, plan, plan.filter!.columns);
  const results = await runWindows(ctx, scanned, cache, (part) => task(ctx, snap, part, plan, 'count', cache));
  return results.reduce((n, r) => n + r.count, known);
}

/**
 * Loads and runs the tasks of `parts`: all loaded first and the pooled ones sent in a few batches
 * (`runAll`) when their columns fit the cache; else a window of partitions at a time, so a scan
 * larger than the cache holds a few partitions' columns in memory, not the table's.
 */
async function runWindows(ctx: StoreContext, parts: readonly PartRecord[], cache: boolean, make: (part: PartRecord) => ScanTask | Promise<ScanTask>): Promise<ScanResult[]> {
  const step = cache ? parts.length : Math.max(2, 2 * (ctx.pool?.concurrency ?? 1));
  const out: ScanResult[] = [];
  for (let at = 0; at < parts.length; at += step) {
    const slice = step >= parts.length ? parts : parts.slice(at, at + step);
    const made = slice.map(make);
    const tasks = made.some((t) => t instanceof Promise) ? await Promise.all(made) : (made as ScanTask[]);
    out.push(...(await runAll(ctx, slice, tasks, parts.length > 1)));
  }
  return out;
}

/** The matches of one partition: their row positions and, when asked, their projected rows. */
export interface PartMatches {
  readonly part: PartRecord;
  readonly rows: Int32Array;
  /** `rows` encoded as a deletion vector (match scans for a delete), by the thread that found them. */
  readonly encoded?: Uint8Array;
  readonly batch: RecordBatch | null;
}

/** Finds the matching rows of every partition (for deletes and replaces), partitions in row order. */
export async function scanMatches(ctx: StoreContext, snap: Snapshot, plan: Plan, withData: boolean): Promise<PartMatches[]> {
  const parts = candidates(snap, plan);
  const cache = !oversized(ctx, parts, plan, withData ? needed(plan) : (plan.filter?.columns ?? []));
  const results = await runWindows(ctx, parts, cache, async (part) => ({ ...(await matchTask(ctx, snap, part, plan, withData, cache)), encodeRows: !withData }));
  return results.map((result, k) => matchesOf(plan, parts[k]!, result, withData)).filter((m) => m.rows.length > 0);
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
  return matchesOf(plan, part, await run(ctx, part, await matchTask(ctx, snap, part, plan, withData, cache), parallel), withData);
}

// the match scan of a partition: a delete needs only the filter's columns; a replace needs the rows too
async function matchTask(ctx: StoreContext, snap: Snapshot, part: PartRecord, plan: Plan, withData: boolean, cache: boolean): Promise<ScanTask> {
  return { ...(await task(ctx, snap, part, plan, withData ? 'select' : 'match', cache)), mode: 'select', withRows: true };
}

function matchesOf(plan: Plan, part: PartRecord, result: ScanResult, withData: boolean): PartMatches {
  const rows = result.rows ?? new Int32Array(0);
  const batch = withData && result.columns ? batchOf(plan, result.count, plan.output.fields.map((f, i) => resultData(f.type, result.count, result.columns![i]!))) : null;
  return { part, rows, batch, ...(result.encoded ? { encoded: result.encoded } : {}) };
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

// 'match': the filter's columns only, for row positions (no projection, no deleted rows' values).
// Made at once when every column is in memory (the cache, or a transaction's own rows): a scan over
// hundreds of small partitions (a writer's deltas not merged yet) then makes no promise per partition.
function task(ctx: StoreContext, snap: Snapshot, part: PartRecord, plan: Plan, kind: ScanTask['mode'] | 'match', cache: boolean): ScanTask | Promise<ScanTask> {
  const mode = kind === 'match' ? 'count' : kind;
  // every row matches: no kernel, only the deleted rows drop out
  const filter = plan.filter !== null && plan.allMatch(part.zones) ? null : plan.filter;
  const names = mode === 'count' ? (filter?.columns ?? NONE) : needed(plan, filter);
  // a select reading through the cache owns what it reads: the selected rows are compacted in place
  const own = mode === 'select' && !cache;
  if (!own) {
    const ready = inMemory(ctx, snap, part, names);
    if (ready !== null) return taskOf(ctx, snap, part, plan, kind, filter, names, ready, null, cache);
  }
  const loading = names.map((n) => (own ? ownedColumnOf(ctx, snap, part, n) : columnOf(ctx, snap, part, n, cache).then((data) => ({ data, owned: false }))));
  return Promise.all(loading).then((loaded) => taskOf(ctx, snap, part, plan, kind, filter, names, loaded.map((l) => l.data), loaded.map((l) => l.owned), cache));
}

const NONE: readonly string[] = Object.freeze([]);

// the columns `names` of a partition when all are in memory (a use of each cached one), else null
function inMemory(ctx: StoreContext, snap: Snapshot, part: PartRecord, names: readonly string[]): Data[] | null {
  const local = snap.local?.get(part.id);
  const out: Data[] = [];
  for (const name of names) {
    const data = local?.get(name) ?? ctx.cache.get(cacheKey(part, name))?.data;
    if (data === undefined) return null;
    out.push(data);
  }
  return out;
}

// the scan task of a partition over its loaded columns (`owned`: which of them the scan may overwrite, null: none)
function taskOf(
  ctx: StoreContext,
  snap: Snapshot,
  part: PartRecord,
  plan: Plan,
  kind: ScanTask['mode'] | 'match',
  filter: Plan['filter'],
  names: readonly string[],
  loaded: readonly Data[],
  owned: readonly boolean[] | null,
  cache: boolean,
): ScanTask {
  const mode = kind === 'match' ? 'count' : kind;
  const columns: Record<string, TaskColumn> = {};
  const range = cache && filter !== null && part.rows >= SKETCH_MIN_ROWS ? rangeFilter(filter.typed) : null;
  const sketched = range !== null && worthSketching(range, part.zones[range.column]) ? range.column : undefined;
  const order = sortedBy(part, filter, names, loaded, cache);
  names.forEach((name, i) => {
    const data = loaded[i]!;
    // a column the rows are ascending by is narrowed by binary search: no sketch
    const sketch = name === sketched && !order.sortedBy?.includes(name) ? sketchOf(ctx, part, name, data) : undefined;
    columns[name] = owned?.[i] ? { ...taskColumn(data), owned: true } : sharedTaskColumn(data, sketch);
  });
  const project = mode === 'count' ? NONE : plan.output.fields.map((f) => f.name);
  const deleted = snap.deleted.get(part.id);
  const deletedColumns = kind === 'count' && filter !== null && deleted?.rows ? deletedColumnsOf(deleted, deleted.rows, columns) : null;
  const t: ScanTask = { mode, length: part.rows, filter, columns, project, deleted: deleted?.bits ?? null, deletedRows: kind === 'count' ? (deleted?.rows ?? null) : null, deletedColumns };
  return order.sortedBy === undefined ? t : { ...t, ...order };
}

// the scan view of a chunk the scan does not own (with its sketch, when the scan may use one), made
// once per chunk: every scan of a cached chunk sends the same view
const taskColumns = new WeakMap<Data, { plain?: TaskColumn; sketched?: TaskColumn }>();

function sharedTaskColumn(data: Data, sketch: Sketch | undefined): TaskColumn {
  let views = taskColumns.get(data);
  if (!views) taskColumns.set(data, (views = {}));
  if (sketch) return (views.sketched ??= { ...taskColumn(data), owned: false, sketch });
  return (views.plain ??= { ...taskColumn(data), owned: false });
}

// one sketch per cached float64 chunk, made empty on its first range scan and living as long as the
// chunk; its bytes count in the cache's budget as part of the chunk's entry
const sketches = new WeakMap<Data, Sketch>();

/** The sketch made for a cached chunk, if a range scan made one (tests, diagnostics). */
export const chunkSketch = (data: Data): Sketch | undefined => sketches.get(data);

function sketchOf(ctx: StoreContext, part: PartRecord, name: string, data: Data): Sketch | undefined {
  if (!(data.values instanceof Float64Array) || data.offset !== 0) return undefined;
  let sketch = sketches.get(data);
  if (!sketch) {
    sketches.set(data, (sketch = emptySketch(data.length, part.zones[name])));
    ctx.cache.charge(cacheKey(part, name), data, sketchBytes(sketch));
  }
  return sketch;
}

/**
 * The columns the filter reads that a partition's rows are ascending by (the scan narrows to the rows
 * it can match by each, exec/narrow.ts): its sort key, and, among its cached chunks (`cache`), any
 * found ascending the first time a filter read it (`ascending`, remembered per chunk). The rows of a
 * k-d leaf sorted by latitude are just as ordered by a point geometry's y box columns, and a
 * time-ordered append's by its timestamps.
 */
export function sortedBy(part: PartRecord, filter: ScanTask['filter'], names: readonly string[], loaded: readonly Data[], cache: boolean): { sortedBy?: readonly string[] } {
  if (filter === null) return {};
  const out = names.filter((name, i) => filter.columns.includes(name) && (name === part.sortedBy || (cache && ascendingChunk(loaded[i]!))));
  return out.length > 0 ? { sortedBy: out } : {};
}

// whether a cached chunk's rows are ascending by its values, found once per chunk
const ordered = new WeakMap<Data, boolean>();

function ascendingChunk(data: Data): boolean {
  let known = ordered.get(data);
  if (known === undefined) ordered.set(data, (known = ascending(taskColumn(data), data.length)));
  return known;
}

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
  const { task, pooled } = placed(ctx, part, t, parallel);
  const end = ctx.reads.begin();
  return (pooled ? ctx.pool! : ctx.inline).run(task).finally(end);
}

/**
 * Runs the tasks of `parts` (in the same order) to completion, results in order: each placed as
 * `run` places it, the pooled ones in batches (a few per worker, balanced by rows), so a scan over
 * many partitions pays a few worker round trips instead of one per partition. When some go to the
 * pool, the small ones ride along in the same batches (`rideAlong`) instead of running here.
 */
export async function runAll(ctx: StoreContext, parts: readonly PartRecord[], tasks: readonly ScanTask[], parallel: boolean): Promise<ScanResult[]> {
  const results: Promise<ScanResult>[] = new Array(tasks.length);
  const pooled: { at: number; task: ScanTask; rows: number }[] = [];
  const inline: { at: number; task: ScanTask }[] = [];
  const end = ctx.reads.begin();
  try {
    const small: { at: number; task: ScanTask; rows: number }[] = [];
    tasks.forEach((t, at) => {
      const { task, pooled: onPool, rows } = placed(ctx, parts[at]!, t, parallel);
      if (onPool) pooled.push({ at, task, rows });
      else small.push({ at, task, rows });
    });
    for (const s of small) (pooled.length > 0 && rideAlong(s.task) ? pooled : inline).push(s);
    if (pooled.length > 0) {
      // two batches per worker: each holds its next one (see exec/pool.ts), and a slow one holds less back
      const groups = balanced(pooled, Math.min(pooled.length, 2 * ctx.pool!.concurrency));
      for (const g of groups) {
        const done = ctx.pool!.runBatch(g.map((p) => p.task));
        g.forEach((p, k) => (results[p.at] = done.then((r) => r[k]!)));
      }
    }
    // on this thread while the workers run theirs
    for (const { at, task } of inline) results[at] = ctx.inline.run(task);
    return await Promise.all(results);
  } finally {
    end();
  }
}

/**
 * Whether a small task goes to the pool with the batches a scan sends there anyway: it costs no
 * round trip of its own, and the thread that drives the scan (and commits a writer's inserts)
 * scans nothing. W1C, a count over ten 1M-row partitions and the 8–12 deltas of a writer's
 * commits, ran the deltas here: 1–2.6 ms of a busy read's main thread, on a loop the workers keep
 * optimised and this thread runs only for deltas (docs/architecture.md, Execute; measured in
 * docs/performance-history.md, W1C session 8). Only tasks whose columns
 * are all in shared memory go (a transaction's own rows in ordinary buffers would be copied).
 */
export function rideAlong(task: ScanTask): boolean {
  const shared = (b: unknown) => b === null || b === undefined || (ArrayBuffer.isView(b) && b.buffer instanceof SharedArrayBuffer);
  return Object.values(task.columns).every((c) => shared(c.values) && shared(c.validity) && shared(c.offsets));
}

// the executor of a task and the task it runs (with the row range of a sorted partition)
function placed(ctx: StoreContext, part: PartRecord, t: ScanTask, parallel: boolean): { task: ScanTask; pooled: boolean; rows: number } {
  const rowRange = t.sortedBy !== undefined && t.rowRange === undefined ? sortedRange(t) : (t.rowRange ?? null);
  const rows = rowRange === null ? (sketchWeight(t) ?? part.rows) : rowRange[1] - rowRange[0];
  // a narrowed range under an exact geometry predicate stays on the pool unless it is tiny: its rows
  // are the query box's candidates, each costly, which partitions running side by side share
  // between the workers; under comparisons only, a range is as cheap per row as a whole partition
  const costly = rowRange !== null && t.filter?.exact === true;
  const inline = rows < (costly ? ctx.options.inlineRows >> 4 : ctx.options.inlineRows);
  return { task: t.sortedBy === undefined ? t : { ...t, rowRange }, pooled: ctx.pool !== null && parallel && !inline, rows };
}

/**
 * A gathered value's weight against a value read in order: each is a cache miss (the rows of a band
 * lie far apart), about four in-order reads' time. Weighed as one, a replace's match scan of a 1%
 * band of a 1M-row `obs` chunk (8 columns: ~121k) ran inline, so the main thread gathered all ten
 * chunks one after the other: W7D batch replace 69.7 / 83.3 ms median against 61.3 / 62.1 with them
 * on the pool (`--only W7D`, 10M rows, builds alternating, load 1.6–2.0).
 */
export const GATHER_WEIGHT = 4;

/**
 * What a scan through a ready column sketch costs, in rows read in order (exec/sketch.ts
 * `sketchCost`, plus what it does with them), if it runs through one; else null. A delete's match
 * scan of a 1% band of a 1M-row chunk weighs ~40k, so it runs inline like a sorted partition's
 * narrowed range; a replace's gathers every column of its ~10k rows and stays on the pool.
 */
export function sketchWeight(t: ScanTask): number | null {
  if (t.filter === null || t.mode === 'aggregate') return null;
  const range = rangeFilter(t.filter.typed);
  const sketch = range === null ? undefined : t.columns[range.column]?.sketch;
  if (sketch === undefined || sketch.order.length !== t.length) return null;
  // a count with deleted rows and no list of them selects its rows to drop the deleted ones
  const listing = t.mode === 'select' || (!!t.deleted && !t.deletedRows);
  const cost = sketchCost(sketch, range!, listing);
  if (cost === null) return null;
  // a count also tests its deleted rows; a select gathers each projected column of its rows (a
  // delete's match scan projects none; a replace's, every column: a 1% band stays on the pool)
  const rows = cost - (listing ? t.length >> 5 : 0);
  return cost + (t.mode === 'count' ? (t.deletedRows?.length ?? 0) : GATHER_WEIGHT * rows * t.project.length);
}

// `items` in `n` groups of about equal rows (largest first onto the lightest group), each in its original order
function balanced<T extends { at: number; rows: number }>(items: readonly T[], n: number): T[][] {
  const groups = Array.from({ length: n }, () => ({ rows: 0, items: [] as T[] }));
  for (const item of [...items].sort((a, b) => b.rows - a.rows)) {
    const lightest = groups.reduce((a, b) => (b.rows < a.rows ? b : a));
    lightest.items.push(item);
    lightest.rows += item.rows;
  }
  return groups.map((g) => g.items.sort((a, b) => a.at - b.at));
}

function batchOf(plan: Plan, length: number, children: Data[]): RecordBatch {
  return new RecordBatch(plan.output, makeData({ type: new Struct(plan.output.fields), length, nullCount: 0, children }));
}
