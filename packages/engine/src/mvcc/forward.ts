// Forward records: where compaction moved the rows of the partitions it merged, and how deletes follow them.
import type { Snapshot } from '../read/snapshot.js';
import type { ForwardRecord, PartRecord } from '../storage/records.js';
import { positions } from './deletes.js';
import { decodePositions, encodePositions } from './positions.js';

/** Rows of one partition (sorted, ascending). */
export interface PartRows {
  readonly part: string;
  readonly rows: Uint32Array;
}

/**
 * Forwards of a merge that concatenated the live rows of `run` (in order) into partition `to`
 * (null: every row was deleted).
 */
export function concatForwards(snap: Snapshot, run: readonly PartRecord[], to: string | null): ForwardRecord[] {
  let offset = 0;
  return run.map((p) => {
    const dropped = droppedRows(snap, p);
    const f: ForwardRecord = { part: p.id, to, offset, asOf: snap.record.version, dropped: encodePositions(dropped) };
    offset += p.rows - dropped.length;
    return f;
  });
}

/**
 * Where a k-d split merge sent the live rows of one of its inputs (`ForwardRecord.split` without
 * its target ids): the leaf of each live row, the merged rows each leaf had from the inputs before
 * this one, and, when the leaves are ordered by a column, the row of each in its leaf.
 */
export interface SplitMap {
  readonly base: readonly number[];
  /** u8 per live row, or u16 LE when `wide`. */
  readonly leaf: Uint8Array;
  /** u32 LE per live row. */
  readonly at?: Uint8Array;
}

/** The split maps of a merge's inputs, whether leaf indices are u16, all from one `splitMaps`. */
export interface SplitMaps {
  readonly wide: boolean;
  readonly maps: readonly SplitMap[];
}

/**
 * The split maps of a k-d split merge that concatenated inputs with `live[i]` live rows each and
 * distributed them to leaves (leaf `L` holds the merged rows `leaves[L]`, ascending; or, when `at`
 * is given, in any order, merged row m being row `at[m]` of its leaf). Work in the merged rows
 * (tens of ms for a merge of millions), so it runs where the merge did, the part writer thread,
 * not on the thread that commits the merge (the event loop). The maps are views of one buffer from
 * `alloc` and of `at`, which must not change afterwards.
 */
export function splitMaps(live: readonly number[], leaves: readonly Int32Array[], at?: Uint32Array, alloc: (bytes: number) => ArrayBufferLike = (n) => new ArrayBuffer(n)): SplitMaps {
  const total = leaves.reduce((n, l) => n + l.length, 0);
  // an invariant: the leaves hold exactly the inputs' live rows (else the forwards would misplace rows)
  if (live.reduce((n, r) => n + r, 0) !== total) throw new Error(`splitMaps: the leaves hold ${total} rows, the inputs ${live.join(' + ')} live rows`);
  const wide = leaves.length > 256;
  const leafOf = wide ? new Uint16Array(alloc(total * 2)) : new Uint8Array(alloc(total));
  for (let L = 0; L < leaves.length; L++) {
    const rows = leaves[L]!;
    for (let j = 0; j < rows.length; j++) leafOf[rows[j]!] = L;
  }
  const seen = new Array<number>(leaves.length).fill(0); // merged rows per leaf before the current input
  let offset = 0;
  const maps = live.map((n): SplitMap => {
    const slice = leafOf.subarray(offset, offset + n);
    const base = [...seen];
    for (let m = 0; m < n; m++) seen[slice[m]!]!++;
    const leaf = new Uint8Array(slice.buffer, slice.byteOffset, slice.byteLength);
    const rows = at ? { at: new Uint8Array(at.buffer, at.byteOffset + offset * 4, n * 4) } : {};
    offset += n;
    return { base, leaf, ...rows };
  });
  return { wide, maps };
}

/** Forwards of a k-d split merge of `run` into the partitions `to`, its inputs' rows mapped by `split` (`splitMaps`). */
export function splitForwards(snap: Snapshot, run: readonly PartRecord[], to: readonly string[], split: SplitMaps): ForwardRecord[] {
  return run.map((p, i) => {
    const { base, leaf, at } = split.maps[i]!;
    return { part: p.id, to: null, offset: 0, asOf: snap.record.version, dropped: encodePositions(droppedRows(snap, p)), split: { to, base, leaf, wide: split.wide, ...(at ? { at } : {}) } };
  });
}

/**
 * Where rows of the forwarded partition are now, by target partition; null when a row is gone (it
 * was deleted before the merge, or every row was): the caller's delete conflicts.
 */
export function forwardRows(f: ForwardRecord, rows: Uint32Array): PartRows[] | null {
  const live = liveIndexes(rows, decodePositions(f.dropped));
  if (live === null) return null;
  if (!f.split) return f.to === null ? null : [{ part: f.to, rows: live.map((m) => f.offset + m) }];
  const { to, base, leaf, wide } = f.split;
  const leafOf = wide ? new Uint16Array(leaf.buffer, leaf.byteOffset, leaf.byteLength >> 1) : leaf;
  const byLeaf = to.map(() => [] as number[]);
  if (f.split.at) {
    const at = u32(f.split.at);
    for (const m of live) byLeaf[leafOf[m]!]!.push(at[m]!);
    return byLeaf.flatMap((r, L) => (r.length > 0 ? [{ part: to[L]!, rows: Uint32Array.from(r).sort() }] : []));
  }
  const count = [...base];
  let k = 0;
  for (let m = 0; k < live.length; m++) {
    const L = leafOf[m]!;
    if (m === live[k]) {
      byLeaf[L]!.push(count[L]!);
      k++;
    }
    count[L]!++;
  }
  return byLeaf.flatMap((r, L) => (r.length > 0 ? [{ part: to[L]!, rows: Uint32Array.from(r) }] : []));
}

/** Sorted positions in one ascending list from several. */
export function mergeRows(lists: readonly Uint32Array[]): Uint32Array {
  if (lists.length === 1) return lists[0]!;
  const out = new Uint32Array(lists.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const l of lists) {
    out.set(l, at);
    at += l.length;
  }
  return out.sort();
}

// a u32 LE list stored as bytes (copied when not 4-byte aligned)
const u32 = (b: Uint8Array): Uint32Array => (b.byteOffset % 4 === 0 ? new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2) : new Uint32Array(b.slice().buffer));

// the merged-row index (live rows before it) of each row; null when one of them was dropped
function liveIndexes(rows: Uint32Array, dropped: Uint32Array): Uint32Array | null {
  const out = new Uint32Array(rows.length);
  let skipped = 0;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    while (skipped < dropped.length && dropped[skipped]! < r) skipped++;
    if (skipped < dropped.length && dropped[skipped] === r) return null;
    out[k] = r - skipped;
  }
  return out;
}

function droppedRows(snap: Snapshot, p: PartRecord): Uint32Array {
  const d = snap.deleted.get(p.id);
  if (!d) return new Uint32Array(0);
  const rows = positions(d.bits, p.rows, d.count);
  return new Uint32Array(rows.buffer, rows.byteOffset, rows.length);
}
