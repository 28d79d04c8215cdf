// Dynamic partitioning of tables with indexed columns: deltas merge into k-d split runs, runs merge tier by tier.
import { randomBytes } from 'node:crypto';
import type { RecordBatch } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { scanBatches } from '../read/execute.js';
import { plan } from '../read/plan.js';
import type { Snapshot } from '../read/snapshot.js';
import { concatForwards, splitForwards } from '../mvcc/forward.js';
import type { ForwardRecord, PartRecord } from '../storage/records.js';
import { kdSplit, takeRows } from './kd-split.js';
import { type WrittenPart, removeParts, sliceColumns, writePart } from './partition.js';
import { splitColumns } from './split-key.js';
import { taskColumn } from '../exec/arrays.js';
import { searchable } from '../exec/narrow.js';

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

/**
 * Writes the live rows of `inputs` as partitions of at most `leafRows` rows, split k-d style
 * over the indexed columns' keys, tagged with `level` and one new run id, each leaf's rows ordered by
 * the first indexed column with one key a scan can binary-search (`sortedBy`). Removes them on failure.
 */
export async function writeTier(ctx: StoreContext, snap: Snapshot, pick: TierPick): Promise<TierWrite> {
  const schema = snap.schema;
  const batches: RecordBatch[] = [];
  for await (const b of scanBatches(ctx, { ...snap, parts: pick.inputs }, plan(schema, snap.record.name, undefined))) batches.push(b);
  const rows = batches.reduce((n, b) => n + b.numRows, 0);
  if (rows === 0) return { written: [], forwards: concatForwards(snap, pick.inputs, null) };
  const columns = sliceColumns(schema, batches, 0, rows);
  const keys: Float64Array[] = [];
  const spans: number[] = [];
  let order: { name: string; key: Float64Array } | null = null;
  for (const c of splitColumns(schema.fields)) {
    const data = columns[schema.fields.findIndex((f) => f.name === c.name)]!;
    const dims = c.key(data);
    if (order === null && dims.length === 1 && searchable(taskColumn(data))) order = { name: c.name, key: dims[0]! };
    keys.push(...dims);
    // one dimension: the column's range over the table; several (a geometry's centre): their own spread
    spans.push(...(dims.length === 1 ? [tableSpread(snap, c.name)] : dims.map(() => Number.NaN)));
  }
  const split = kdSplit(keys, rows, leafRows(ctx.options.partitionRows), spans);
  const leaves = order ? split.map((leaf) => sortRows(leaf, order.key)) : split;
  const at = order ? positions(leaves, rows) : undefined;
  const run = randomBytes(6).toString('hex');
  const seq = Math.min(...pick.inputs.map((p) => p.seq));
  const written: (WrittenPart & { seq: number })[] = [];
  try {
    for (const [i, leaf] of leaves.entries()) {
      const part = await writePart(ctx, snap.record.id, schema, takeRows(schema.fields, columns, leaf), undefined, true);
      written.push({ ...part, level: pick.level, run, seq: seq + i / leaves.length, ...(order ? { sortedBy: order.name } : {}) });
    }
  } catch (e) {
    await removeParts(ctx, written);
    throw e;
  }
  const forwards = splitForwards(
    snap,
    pick.inputs,
    written.map((w) => w.id),
    leaves,
    at,
  );
  return { written, forwards };
}

/**
 * The rows of a leaf ordered by their keys, ascending, NaN (null) last, ties (and -0, +0) in row
 * order. A sorted leaf lets a scan read only the rows a range filter on the column can match
 * (exec/narrow.ts). An LSD radix sort of the keys' order-preserving 64-bit images, 11 bits a pass:
 * linear, where a comparison sort of a 250k-row leaf costs ~250 ms.
 */
export function sortRows(rows: Int32Array, key: Float64Array): Int32Array {
  const n = rows.length;
  const f = new Float64Array(n);
  for (let j = 0; j < n; j++) f[j] = key[rows[j]!]! + 0; // -0 + 0 is +0
  const w = new Uint32Array(f.buffer); // little-endian words: w[2j] low, w[2j + 1] high
  for (let j = 0; j < n; j++) {
    const hi = w[2 * j + 1]!;
    if (f[j] !== f[j]) w[2 * j] = w[2 * j + 1] = 0xffffffff;
    else if (hi >>> 31) [w[2 * j], w[2 * j + 1]] = [~w[2 * j]!, ~hi];
    else w[2 * j + 1] = hi | 0x80000000;
  }
  // the keys travel with the rows: each pass reads its digits in order
  let [src, lo, hi] = [Int32Array.from({ length: n }, (_, j) => j), new Uint32Array(n), new Uint32Array(n)];
  for (let j = 0; j < n; j++) {
    lo[j] = w[2 * j]!;
    hi[j] = w[2 * j + 1]!;
  }
  let [dst, dlo, dhi] = [new Int32Array(n), new Uint32Array(n), new Uint32Array(n)];
  const digits = new Uint16Array(n);
  const count = new Int32Array(BUCKETS + 1);
  for (let shift = 0; shift < 64; shift += DIGIT) {
    count.fill(0);
    for (let j = 0; j < n; j++) {
      const d = (shift < 32 ? (lo[j]! >>> shift) | (shift + DIGIT > 32 ? hi[j]! << (32 - shift) : 0) : hi[j]! >>> (shift - 32)) & (BUCKETS - 1);
      digits[j] = d;
      count[d + 1]!++;
    }
    if (count.some((c) => c === n)) continue; // every key has this digit
    for (let d = 0; d < BUCKETS; d++) count[d + 1]! += count[d]!;
    for (let j = 0; j < n; j++) {
      const at = count[digits[j]!]!++;
      dst[at] = src[j]!;
      dlo[at] = lo[j]!;
      dhi[at] = hi[j]!;
    }
    [src, dst, lo, dlo, hi, dhi] = [dst, src, dlo, lo, dhi, hi];
  }
  for (let j = 0; j < n; j++) dst[j] = rows[src[j]!]!;
  return dst;
}

// radix digits of sortRows: 11 bits, 6 passes over the 64-bit keys (the buckets' write heads stay in cache)
const DIGIT = 11;
const BUCKETS = 1 << DIGIT;

// the row of each merged row in its leaf
function positions(leaves: readonly Int32Array[], rows: number): Uint32Array {
  const at = new Uint32Array(rows);
  for (const leaf of leaves) for (let j = 0; j < leaf.length; j++) at[leaf[j]!] = j;
  return at;
}

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
