// Partial aggregates of one partition: group ids per row, then count/sum/min/max per group.
import { evaluateRow } from '../expr/reference.js';
import { columnNodes, type TypedExpr } from '../expr/typed.js';
import type { TaskColumn } from '../exec/task.js';
import { geometryCells, keyCell, pointKey } from '../geo/h3.js';
import { readGeometry } from '../geo/parse.js';
import { BytesGroups, NumberGroups } from './groups.js';
import { valueReader } from './rows.js';
import type { AggregateTask, GroupKey } from './spec.js';

/** A group key value: h3 cells as id strings, bucket bounds as numbers, else the key's value. */
export type KeyValue = string | number | bigint | boolean | Uint8Array | null;

/** Sums (Neumaier: `sum + comp`), non-null counts, minima and maxima of one field, per group. */
export interface FieldPartial {
  readonly sum: Float64Array;
  readonly comp: Float64Array;
  readonly n: Float64Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
}

/** Partial aggregates: one entry per group, in order of first appearance. */
export interface PartialAggregate {
  readonly keys: KeyValue[];
  /** Rows per group (the `*` column). */
  readonly count: Float64Array;
  readonly fields: FieldPartial[];
}

/** Group ids of every row of a partition for a key (-1 never occurs), and the key of each id. */
export interface GroupCodes {
  readonly codes: Int32Array;
  readonly keys: KeyValue[];
}

/**
 * Groups the rows `sel[0..n)` (every row when `sel` is null) of a `length`-row partition and aggregates
 * them. Keys that are a bare number/string column or `h3(lat, lon, res)` are first turned into
 * group codes for every row of the partition (`codes`: given from the column cache, else computed
 * and returned for caching), so a repeated group-by is one array lookup per row.
 */
export function partialAggregate(task: AggregateTask, cols: Readonly<Record<string, TaskColumn>>, length: number, sel: Int32Array | null, n: number, cached?: GroupCodes): { partial: PartialAggregate; codes?: GroupCodes } {
  const fresh = cached ? undefined : groupCodes(task.key, cols, length);
  const codes = cached ?? fresh;
  let grouping: Grouping;
  if (codes) {
    const gids = sel === null ? codes.codes : Int32Array.from({ length: n }, (_, j) => codes.codes[sel[j]!]!);
    grouping = { rows: sel, gids, pairs: n, keys: codes.keys };
  } else {
    const rowAt = sel === null ? (j: number) => j : (j: number) => sel[j]!;
    grouping = groupRows(task.key, cols, rowAt, n);
  }
  const groups = grouping.keys.length;
  const count = new Float64Array(groups);
  const { rows, gids, pairs } = grouping;
  for (let p = 0; p < pairs; p++) count[gids[p]!]!++;
  const fields = task.fields.map((f) => accumulate(cols[f.name]!, f.column.physical, rows, gids, pairs, groups));
  return { partial: { keys: grouping.keys, count, fields }, codes: fresh };
}

/** Whether a key's group codes can be computed once per partition and cached. */
export function cacheableKey(key: GroupKey): boolean {
  if (key.kind === 'h3point') return true;
  return key.kind === 'expr' && key.typed.kind === 'column' && (NUMBER_KINDS.test(key.typed.physical) || /^(large)?utf8$/.test(key.typed.physical));
}

const NUMBER_KINDS = /^(u?int(8|16|32)|float32|float64|date32)$/;

// group codes of all rows for a cacheable key (in a SharedArrayBuffer), else undefined
function groupCodes(key: GroupKey, cols: Readonly<Record<string, TaskColumn>>, length: number): GroupCodes | undefined {
  if (!cacheableKey(key)) return undefined;
  const all = (j: number) => j;
  let g: Grouping;
  if (key.kind === 'h3point') {
    const cells = h3PointKeys(cols[key.lat.name]!, cols[key.lon.name]!, key.res);
    g = byNumbers(cells, null, all, length, (k) => (k !== k ? null : keyCell(k, key.res)));
  } else {
    const typed = key.kind === 'expr' && key.typed.kind === 'column' ? key.typed : null;
    const col = cols[typed!.name]!;
    g = NUMBER_KINDS.test(typed!.physical) ? byNumbers(col.values as ArrayLike<number>, col.validity, all, length, (k) => k) : byBytes(col, all, length);
  }
  const codes = new Int32Array(new SharedArrayBuffer(Math.max(8, length * 4)), 0, length);
  codes.set(g.gids);
  return { codes, keys: g.keys };
}

interface Grouping {
  /** The row of each pair; null: pair p is row p. */
  readonly rows: Int32Array | null;
  readonly gids: Int32Array;
  readonly pairs: number;
  readonly keys: KeyValue[];
}

function groupRows(key: GroupKey, cols: Readonly<Record<string, TaskColumn>>, rowAt: (j: number) => number, n: number): Grouping {
  switch (key.kind) {
    case 'expr':
      return byValues(key.typed, cols, rowAt, n);
    case 'bucket':
      return byBuckets(key, cols, rowAt, n);
    case 'h3point': {
      const keys = h3PointKeys(cols[key.lat.name]!, cols[key.lon.name]!, key.res);
      return byNumbers(keys, null, rowAt, n, (k) => (k !== k ? null : keyCell(k, key.res)));
    }
    case 'h3geom':
      return byLists(n, rowAt, (r) => {
        const v = valueReader(cols[key.column.name]!, key.column.physical)(r) as string | Uint8Array | null;
        return v === null ? [null] : geometryCells(readGeometry(v), key.res);
      });
  }
}

/** The res-`res` cell keys of every row of a lat/lon pair (NaN where either is null). */
export function h3PointKeys(lat: TaskColumn, lon: TaskColumn, res: number): Float64Array {
  const [la, lo] = [lat.values as Float64Array, lon.values as Float64Array];
  const out = new Float64Array(la.length);
  const valid = (c: TaskColumn, i: number): boolean => c.validity === null || ((c.validity[i >> 3]! >> (i & 7)) & 1) === 1;
  for (let i = 0; i < la.length; i++) out[i] = valid(lat, i) && valid(lon, i) ? pointKey(la[i]!, lo[i]!, res) : NaN;
  return out;
}

function byNumbers(values: ArrayLike<number>, validity: Uint8Array | null, rowAt: (j: number) => number, n: number, keyOf: (k: number) => KeyValue): Grouping {
  const groups = new NumberGroups();
  const rows = new Int32Array(n);
  const gids = new Int32Array(n);
  let sawNull = false;
  for (let j = 0; j < n; j++) {
    const r = rowAt(j);
    rows[j] = r;
    if (validity !== null && ((validity[r >> 3]! >> (r & 7)) & 1) === 0) {
      gids[j] = -1;
      sawNull = true;
    } else gids[j] = groups.id(values[r]!);
  }
  const keys: KeyValue[] = groups.keys.map(keyOf);
  if (sawNull) {
    const nullId = keys.length;
    keys.push(null);
    for (let j = 0; j < n; j++) if (gids[j] === -1) gids[j] = nullId;
  }
  return { rows, gids, pairs: n, keys: mergeNullKeys(keys, gids, n) };
}

// NaN h3 keys (null points) and the null group are one group
function mergeNullKeys(keys: KeyValue[], gids: Int32Array, n: number): KeyValue[] {
  const nulls = keys.flatMap((k, i) => (k === null ? [i] : []));
  if (nulls.length <= 1) return keys;
  const [keep, ...drop] = nulls;
  const remap = Int32Array.from(keys.keys());
  for (const d of drop) remap[d] = keep!;
  const kept = keys.map((_, i) => i).filter((i) => !drop.includes(i));
  const dense = new Int32Array(keys.length);
  kept.forEach((old, i) => (dense[old] = i));
  for (let j = 0; j < n; j++) gids[j] = dense[remap[gids[j]!]!]!;
  return kept.map((i) => keys[i]!);
}

function byBytes(col: TaskColumn, rowAt: (j: number) => number, n: number): Grouping {
  const data = col.values as Uint8Array;
  const groups = new BytesGroups(data);
  const off = col.offsets!;
  const rows = new Int32Array(n);
  const gids = new Int32Array(n);
  const validity = col.validity;
  let sawNull = false;
  for (let j = 0; j < n; j++) {
    const r = rowAt(j);
    rows[j] = r;
    if (validity !== null && ((validity[r >> 3]! >> (r & 7)) & 1) === 0) {
      gids[j] = -1;
      sawNull = true;
    } else gids[j] = groups.id(Number(off[r]!), Number(off[r + 1]!));
  }
  const decoder = new TextDecoder();
  const keys: KeyValue[] = Array.from({ length: groups.size }, (_, g) => decoder.decode(data.subarray(groups.starts[g]!, groups.ends[g]!)));
  if (sawNull) {
    keys.push(null);
    for (let j = 0; j < n; j++) if (gids[j] === -1) gids[j] = keys.length - 1;
  }
  return { rows, gids, pairs: n, keys };
}

function byValues(typed: TypedExpr, cols: Readonly<Record<string, TaskColumn>>, rowAt: (j: number) => number, n: number): Grouping {
  const readers = new Map<string, (i: number) => unknown>();
  for (const c of columnNodes(typed)) readers.set(c.name, valueReader(cols[c.name]!, c.physical));
  return byLists(n, rowAt, (r) => [evaluateRow(typed, (name) => readers.get(name)!(r)) as KeyValue]);
}

function byBuckets(key: GroupKey & { kind: 'bucket' }, cols: Readonly<Record<string, TaskColumn>>, rowAt: (j: number) => number, n: number): Grouping {
  const readers = new Map<string, (i: number) => unknown>();
  for (const c of columnNodes(key.arg)) readers.set(c.name, valueReader(cols[c.name]!, c.physical));
  const rows: number[] = [];
  const gids: number[] = [];
  for (let j = 0; j < n; j++) {
    const r = rowAt(j);
    const v = evaluateRow(key.arg, (name) => readers.get(name)!(r)) as number | bigint | null;
    if (v === null) continue; // a null value is in no bucket
    key.bounds.forEach((b, i) => {
      if (b >= v) {
        rows.push(r);
        gids.push(i);
      }
    });
  }
  return { rows: Int32Array.from(rows), gids: Int32Array.from(gids), pairs: rows.length, keys: [...key.bounds] };
}

// list-valued keys: a row joins each of its keys' groups once
function byLists(n: number, rowAt: (j: number) => number, keysOf: (r: number) => KeyValue[]): Grouping {
  const ids = new Map<unknown, number>();
  const keys: KeyValue[] = [];
  const rows: number[] = [];
  const gids: number[] = [];
  for (let j = 0; j < n; j++) {
    const r = rowAt(j);
    for (const k of new Set(keysOf(r).map(normal))) {
      let id = ids.get(k);
      if (id === undefined) {
        ids.set(k, (id = keys.length));
        keys.push(denormal(k));
      }
      rows.push(r);
      gids.push(id);
    }
  }
  return { rows: Int32Array.from(rows), gids: Int32Array.from(gids), pairs: rows.length, keys };
}

// Map keys: bytes by content, -0 as 0, NaN as NaN (a Map already treats NaN as one key)
const normal = (k: KeyValue): unknown => (k instanceof Uint8Array ? `\u0000b${Buffer.from(k).toString('hex')}` : k === 0 ? 0 : k);
const denormal = (k: unknown): KeyValue => (typeof k === 'string' && k.startsWith('\u0000b') ? new Uint8Array(Buffer.from(k.slice(2), 'hex')) : (k as KeyValue));

function accumulate(col: TaskColumn, physical: string, rows: Int32Array | null, gids: Int32Array, pairs: number, groups: number): FieldPartial {
  const sum = new Float64Array(groups);
  const comp = new Float64Array(groups);
  const cnt = new Float64Array(groups);
  const min = new Float64Array(groups).fill(Infinity);
  const max = new Float64Array(groups).fill(-Infinity);
  const validity = col.validity;
  if (!/^(u?int|float|date32)/.test(physical)) {
    // count only (strings, bools, ...): non-null values per group
    for (let p = 0; p < pairs; p++) {
      const r = rows === null ? p : rows[p]!;
      if (validity === null || ((validity[r >> 3]! >> (r & 7)) & 1) === 1) cnt[gids[p]!]!++;
    }
    return { sum: sum.fill(NaN), comp, n: cnt, min: min.fill(NaN), max: max.fill(NaN) };
  }
  const values = col.values as ArrayLike<number | bigint>;
  const wide = values instanceof BigInt64Array || values instanceof BigUint64Array;
  for (let p = 0; p < pairs; p++) {
    const r = rows === null ? p : rows[p]!;
    if (validity !== null && ((validity[r >> 3]! >> (r & 7)) & 1) === 0) continue;
    const v = wide ? Number(values[r]!) : (values[r] as number);
    const g = gids[p]!;
    // Neumaier's compensated sum
    const s = sum[g]!;
    const t = s + v;
    comp[g]! += Math.abs(s) >= Math.abs(v) ? s - t + v : v - t + s;
    sum[g] = t;
    cnt[g]!++;
    if (v < min[g]!) min[g] = v;
    if (v > max[g]!) max[g] = v;
  }
  return { sum, comp, n: cnt, min, max };
}
