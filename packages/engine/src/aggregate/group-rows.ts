// Group ids of rows for each kind of key: numbers and strings through hash tables, lists (bucket,
// h3 of polygons) as (row, group) pairs.
import { evaluateRow } from '../expr/reference.js';
import { columnNodes, type TypedExpr } from '../expr/typed.js';
import type { TaskColumn } from '../exec/task.js';
import { geometryCells, pointKey } from '../geo/h3.js';
import { readGeometry } from '../geo/parse.js';
import { BytesGroups, NumberGroups } from './groups.js';
import type { GroupKeys, KeyValue } from './partial.js';
import { valueReader } from './rows.js';
import type { GroupKey } from './spec.js';

/** (row, group) pairs and the key of each group. */
export interface Grouping {
  /** The row of each pair; null: pair p is row p. */
  readonly rows: Int32Array | null;
  readonly gids: Int32Array;
  readonly pairs: number;
  readonly keys: GroupKeys;
}

/** Groups the rows `rowAt(0..n)` by any key kind. */
export function groupRows(key: GroupKey, cols: Readonly<Record<string, TaskColumn>>, rowAt: (j: number) => number, n: number): Grouping {
  switch (key.kind) {
    case 'expr':
      return byValues(key.typed, cols, rowAt, n);
    case 'bucket':
      return byBuckets(key, cols, rowAt, n);
    case 'h3point': {
      const g = byNumbers(h3PointKeys(cols[key.lat.name]!, cols[key.lon.name]!, key.res), null, rowAt, n, (k) => k);
      return { ...g, keys: Float64Array.from(g.keys as number[]) };
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

/** Groups by a number array (bit-pattern hash; null rows in a null group); `keyOf` maps a number to its key. */
export function byNumbers(values: ArrayLike<number>, validity: Uint8Array | null, rowAt: (j: number) => number, n: number, keyOf: (k: number) => KeyValue): Grouping {
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

/** Groups by a utf8 column's bytes. */
export function byBytes(col: TaskColumn, rowAt: (j: number) => number, n: number): Grouping {
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

