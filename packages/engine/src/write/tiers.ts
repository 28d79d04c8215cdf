// Dynamic partitioning of tables with indexed columns: deltas merge into k-d split runs, runs merge tier by tier.
import { randomBytes } from 'node:crypto';
import type { Data, RecordBatch } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { scanBatches } from '../read/execute.js';
import { plan } from '../read/plan.js';
import { type SplitMaps, concatForwards, splitForwards, splitMaps } from '../mvcc/forward.js';
import { type Snapshot, liveRows } from '../read/snapshot.js';
import type { ForwardRecord, PartRecord } from '../storage/records.js';
import { takeRows } from './kd-split.js';
import type { PartWriter } from './part-writer.js';
import { type WrittenPart, removeParts, sliceColumns, writePart } from './partition.js';
import { splitColumns } from './split-key.js';
import { type TierSplit, tierLeaves } from './tier-split.js';

/** Runs of one tier merged together into the next tier. */
export const FANOUT = 4;

/**
 * Rows per partition of a k-d split run: a quarter of the target, so a run of the largest merge
 * (4 × partitionRows rows) has 16 leaves and a range on one of two indexed columns reads 4 of them.
 */
export const leafRows = (partitionRows: number): number => Math.max(1, Math.floor(partitionRows / 4));

/** What to merge next and the tier of the result. */
export interface TierPick {
  readonly inputs: readonly PartRecord[];
  readonly level: number;
}

/**
 * Picks the next merge of an indexed table, else null: first the deltas (tier 0) once there are
 * `compactRun` of them or more rows than a leaf (a delta a query would read whole, while a split
 * reads a leaf of it); then, tier by tier, `FANOUT` runs of one
 * tier into one run of the next. A merge holds at most `4 × partitionRows` rows (its memory bound),
 * so runs stop growing there and a query reads about one partition per run.
 */
export function pickTier(parts: readonly PartRecord[], partitionRows: number, compactRun: number, live: (p: PartRecord) => number): TierPick | null {
  const cap = 4 * partitionRows;
  const deltas = parts.filter((p) => !p.level);
  const deltaRows = deltas.reduce((n, p) => n + live(p), 0);
  if (deltas.length >= compactRun || deltaRows > leafRows(partitionRows)) {
    const inputs = within(deltas.map((p) => [p]), cap, live);
    if (inputs.length > 0) return { inputs, level: 1 };
  }
  const runs = new Map<string, PartRecord[]>();
  for (const p of parts) if (p.level) runs.set(p.run ?? p.id, [...(runs.get(p.run ?? p.id) ?? []), p]);
  const levels = [...new Set([...runs.values()].map((r) => r[0]!.level!))].sort((a, b) => a - b);
  for (const level of levels) {
    const same = [...runs.values()].filter((r) => r[0]!.level === level);
    if (same.length < FANOUT) continue;
    const inputs = within(same.slice(0, FANOUT), cap, live);
    if (new Set(inputs.map((p) => p.run)).size >= 2) return { inputs, level: level + 1 };
  }
  return null;
}

/** The partitions a tier merge wrote, and the forward records of its inputs (where each row went). */
export interface TierWrite {
  readonly written: (WrittenPart & { seq: number })[];
  readonly forwards: ForwardRecord[];
}

/** Columns of a partition the merge wrote, as written, for the cache once the merge is committed. */
export interface TierWarm {
  readonly part: WrittenPart;
  readonly names: readonly string[];
  readonly columns: readonly Data[];
}

/**
 * Writes the live rows of `inputs` as partitions of at most `leafRows` rows, split k-d style
 * over the indexed columns' keys, tagged with `level` and one new run id, each leaf's rows ordered by
 * the first indexed column with one key a scan can binary-search (`sortedBy`). Removes them on failure.
 * With a part writer, all of it (reading, joining, splitting, sorting, gathering, encoding, writing)
 * runs on its thread, which sends back the columns named in `warm` as written (`onWarm`) and where
 * each input's rows went; this thread only makes the forward records of that. Without, the same
 * steps run here.
 */
export async function writeTier(ctx: StoreContext, snap: Snapshot, pick: TierPick, warm: readonly string[] = [], onWarm?: (w: TierWarm) => void): Promise<TierWrite> {
  const schema = snap.schema;
  const split: TierSplit = {
    leafRows: leafRows(ctx.options.partitionRows),
    spans: Object.fromEntries(splitColumns(schema.fields).map((c) => [c.name, tableSpread(snap, c.name)])),
  };
  const made = ctx.partWriter ? await onThread(ctx, ctx.partWriter, snap, pick, split, warm) : await inline(ctx, snap, pick, split);
  if (made.parts.length === 0) return { written: [], forwards: concatForwards(snap, pick.inputs, null) };
  const run = randomBytes(6).toString('hex');
  const seq = Math.min(...pick.inputs.map((p) => p.seq));
  const order = made.sortedBy !== undefined ? { sortedBy: made.sortedBy } : {};
  const written = made.parts.map((part, i) => ({ ...part, level: pick.level, run, seq: seq + i / made.parts.length, ...order }));
  if (onWarm) written.forEach((part, i) => made.warm[i] && onWarm({ part, names: made.names, columns: made.warm[i] }));
  const forwards = splitForwards(snap, pick.inputs, written.map((w) => w.id), made.moved);
  return { written, forwards };
}

// the leaves a tier merge wrote, in leaf order, and where the inputs' rows went
interface Made {
  readonly parts: WrittenPart[];
  readonly moved: SplitMaps;
  readonly sortedBy?: string;
  readonly names: readonly string[];
  readonly warm: readonly (readonly Data[])[];
}

// on the part writer thread: it reads the inputs itself and drops their deleted rows
async function onThread(ctx: StoreContext, writer: PartWriter, snap: Snapshot, pick: TierPick, split: TierSplit, warm: readonly string[]): Promise<Made> {
  const table = snap.record.id;
  const inputs = pick.inputs.map((p) => ({ ...p, deleted: snap.deleted.get(p.id)?.bits }));
  const done = await writer.tier({ table, token: ctx.token, schema: snap.schema, inputs, split, warm });
  return { ...done, parts: done.parts.map((p) => ({ table, ...p })), names: done.warm.names, warm: done.warm.columns };
}

// on this thread: the same split (`tierLeaves`), each leaf written here; all removed when one fails
async function inline(ctx: StoreContext, snap: Snapshot, pick: TierPick, split: TierSplit): Promise<Made> {
  const schema = snap.schema;
  const batches: RecordBatch[] = [];
  for await (const b of scanBatches(ctx, { ...snap, parts: pick.inputs }, plan(schema, snap.record.name, undefined))) batches.push(b);
  const rows = batches.reduce((n, b) => n + b.numRows, 0);
  if (rows === 0) return { parts: [], moved: { wide: false, maps: [] }, names: [], warm: [] };
  const columns = sliceColumns(schema, batches, 0, rows);
  const leaves = tierLeaves(schema, columns, rows, split);
  const parts: WrittenPart[] = [];
  try {
    for (const leaf of leaves.leaves) parts.push(await writePart(ctx, snap.record.id, schema, takeRows(schema.fields, columns, leaf)));
  } catch (e) {
    await removeParts(ctx, parts);
    throw e;
  }
  const moved = splitMaps(pick.inputs.map((p) => liveRows(snap, p)), leaves.leaves, leaves.at);
  return { parts, moved, ...(leaves.sortedBy ? { sortedBy: leaves.sortedBy } : {}), names: [], warm: [] };
}

/** The rows of a leaf ordered by their keys (`tier-split.ts`). */
export { sortRows } from './tier-split.js';

// max - min of a column over the zone maps of every partition (keys of numeric and temporal columns)
function tableSpread(snap: Snapshot, column: string): number {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const p of snap.parts) {
    const z = p.zones[column];
    if (z?.min == null || z.max == null || typeof z.min === 'string' || typeof z.min === 'boolean') continue;
    min = Math.min(min, Number(z.min));
    max = Math.max(max, Number(z.max));
  }
  return max > min ? max - min : 1;
}

// whole groups (a delta, or a run's partitions) in order while the rows fit under the cap
function within(groups: readonly PartRecord[][], cap: number, live: (p: PartRecord) => number): PartRecord[] {
  const out: PartRecord[] = [];
  let rows = 0;
  for (const g of groups) {
    const n = g.reduce((s, p) => s + live(p), 0);
    if (out.length > 0 && rows + n > cap) break;
    out.push(...g);
    rows += n;
  }
  return out;
}
