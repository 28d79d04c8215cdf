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
 * Forwards of a k-d split merge: the live rows of `run`, concatenated in order, were distributed to
 * the partitions `to` (leaf `L` holds the merged rows `leaves[L]`, ascending; or, when `at` is given,
 * in any order, merged row m being row `at[m]` of its leaf).
 */
export function splitForwards(snap: Snapshot, run: readonly PartRecord[], to: readonly string[], leaves: readonly Int32Array[], at?: Uint32Array): ForwardRecord[] {
  const total = leaves.reduce((n, l) => n + l.length, 0);
  const wide = to.length > 256;
  const leafOf = wide ? new Uint16Array(total) : new Uint8Array(total);
  leaves.forEach((rows, L) => {
    for (let j = 0; j < rows.length; j++) leafOf[rows[j]!] = L;
  });
  const seen = new Array<number>(to.length).fill(0); // merged rows per leaf before the current input
  let offset = 0;
  return run.map((p) => {
    const dropped = droppedRows(snap, p);
    const live = p.rows - dropped.length;
    const slice = leafOf.slice(offset, offset + live);
    const base = [...seen];
    for (let m = 0; m < live; m++) seen[slice[m]!]!++;
    offset += live;
    const leaf = new Uint8Array(slice.buffer, slice.byteOffset, slice.byteLength);
    const rows = at ? { at: new Uint8Array(at.slice(offset - live, offset).buffer) } : {};
    return { part: p.id, to: null, offset: 0, asOf: snap.record.version, dropped: encodePositions(dropped), split: { to, base, leaf, wide, ...rows } };
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
