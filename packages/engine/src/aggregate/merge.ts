// Merges partial aggregates (in partition order) and shapes the results: final values or the wire's partials.
import { type DataType, Table, type Vector } from 'apache-arrow';
import { HaloclineError } from '../errors.js';
import { isNumeric } from '../expr/types.js';
import type { Aggr } from '../schema/metadata.js';
import { NumberGroups } from './groups.js';
import type { KeyValue, PartialAggregate } from './partial.js';
import type { AggField } from './spec.js';
import { cellVector, float64Vector, keyVector } from './vectors.js';

/** Sums (`sum + comp`, Neumaier), non-null counts, minima and maxima of one field per merged group. */
export interface MergedField {
  sum: Float64Array;
  comp: Float64Array;
  n: Float64Array;
  min: Float64Array;
  max: Float64Array;
}

/** Accumulated groups across partitions. */
export class Merged {
  /** Rows per group. */
  count: Float64Array = new Float64Array(64);
  readonly fields: MergedField[];
  private size = 0;
  // value keys by a Map; h3 cell numbers (partials with Float64Array keys) in a typed hash table
  private readonly values: KeyValue[] = [];
  private readonly ids = new Map<unknown, number>();
  private readonly cells = new NumberGroups();

  /** `res`: the resolution of h3 cell keys, when the key is `h3(lat, lon, res)`. */
  constructor(fields: number, private readonly res: number | null = null) {
    this.fields = Array.from({ length: fields }, () => emptyField(64));
  }

  /** Makes room for `groups` groups in all (a hint: fewer or more are fine). */
  reserve(groups: number): void {
    if (groups <= this.count.length) return;
    this.resize(groups);
    if (this.res !== null) this.cells.reserve(groups);
  }

  /** Adds one partition's partials; call in partition order (sums are compensated, min/max exact). */
  add(p: PartialAggregate): void {
    const keys = p.keys;
    const ids = new Int32Array(keys.length);
    for (let g = 0; g < keys.length; g++) ids[g] = keys instanceof Float64Array ? this.cellId(keys[g]!) : this.valueId(keys[g]!);
    const count = this.count;
    for (let g = 0; g < ids.length; g++) count[ids[g]!]! += p.count[g]!;
    p.fields.forEach((src, i) => mergeField(this.fields[i]!, src, ids));
  }

  /**
   * Indices of the groups with rows (an empty bucket is left out), sorted by key: null last,
   * numbers/bigints numerically (NaN after them), strings by code point, false < true. Cells sort
   * by number, which is their id strings' order (15 hex digits, the resolution's in front).
   */
  order(): number[] {
    if (this.res !== null) {
      // NaN (the null cell) sorts last in a typed-array sort
      const sorted = Float64Array.from(this.cells.keys).sort();
      const out: number[] = [];
      for (let j = 0; j < sorted.length; j++) {
        const id = this.cells.id(sorted[j]!);
        if (this.count[id]! > 0) out.push(id);
      }
      return out;
    }
    return this.values.map((_, i) => i).filter((i) => this.count[i]! > 0).sort((a, b) => compareKeys(this.values[a]!, this.values[b]!));
  }

  /** The key column of the groups `order` (h3 cells as id strings, the null cell null). */
  keyColumn(order: readonly number[], type: DataType): Vector {
    if (this.res !== null) return cellVector(order.length, (k) => this.cells.keys[order[k]!]!, this.res);
    return keyVector(type, order.map((i) => this.values[i]!));
  }

  private valueId(key: KeyValue): number {
    const k = mapKey(key);
    let id = this.ids.get(k);
    if (id === undefined) {
      this.ids.set(k, (id = this.values.length));
      this.values.push(key);
      this.grow();
    }
    return id;
  }

  private cellId(cell: number): number {
    const id = this.cells.id(cell);
    if (id === this.size) this.grow();
    return id;
  }

  // one more group (zero count, empty field accumulators), doubling the arrays when full
  private grow(): void {
    if (this.size === this.count.length) this.resize(this.size * 4);
    this.size++;
  }

  private resize(cap: number): void {
    this.count = widen(this.count, cap, 0);
    for (const f of this.fields) {
      [f.sum, f.comp, f.n] = [widen(f.sum, cap, 0), widen(f.comp, cap, 0), widen(f.n, cap, 0)];
      [f.min, f.max] = [widen(f.min, cap, Infinity), widen(f.max, cap, -Infinity)];
    }
  }
}

/**
 * The final table: the key column (named `keyName`, type `keyType`), one column per field with its
 * aggregate (avg = sum / count; an empty group — no non-null values — gives null for avg, sum, min
 * and max, and 0 for count), then `*`, the row count.
 */
export function finalTable(m: Merged, fields: readonly AggField[], keyName: string, keyType: DataType): Table {
  const order = m.order();
  const columns: Record<string, Vector> = { [keyName]: m.keyColumn(order, keyType) };
  fields.forEach((f, j) => {
    const acc = m.fields[j]!;
    columns[f.name] = float64Vector(order.length, (k) => value(f.fn, f, acc, order[k]!));
  });
  columns['*'] = float64Vector(order.length, (k) => m.count[order[k]!]!);
  return new Table(columns);
}

/**
 * Throws InvalidArgument when two columns of a final aggregate table would have one name: the key
 * (named as the group-by is written), each aggregated column, and `*`, the row count. A table's columns
 * are found by name, so one would hide the other (the wire's partials, `<f>_sum` …, never clash).
 * @example
 * checkFinalNames('depth', ['depth']) // throws: group by "(depth)" to keep both
 */
export function checkFinalNames(keyName: string, fieldNames: readonly string[], table?: string): void {
  for (const name of fieldNames) {
    if (name === '*') {
      throw new HaloclineError('InvalidArgument', 'aggregate: column "*" cannot be aggregated under its name: "*" is the row count of each group', { table, column: name });
    }
    if (name === keyName) {
      throw new HaloclineError('InvalidArgument', `aggregate: the group key and the aggregate of column "${name}" would both be named "${name}"; group by "(${name})" to have both`, { table, column: name });
    }
  }
}

/**
 * The wire's partial aggregates (see wire-protocol.md, aggregate): the key in a column named "",
 * `<f>_sum`, `<f>_count`, `<f>_min`, `<f>_max` per field, and `*`; clients merge rows by key.
 */
export function partialTable(m: Merged, fields: readonly AggField[], keyType: DataType): Table {
  const order = m.order();
  const columns: Record<string, Vector> = { '': m.keyColumn(order, keyType) };
  fields.forEach((f, j) => {
    const acc = m.fields[j]!;
    for (const part of ['sum', 'count', 'min', 'max'] as const) {
      columns[`${f.name}_${part}`] = float64Vector(order.length, (k) => value(part, f, acc, order[k]!));
    }
  });
  columns['*'] = float64Vector(order.length, (k) => m.count[order[k]!]!);
  return new Table(columns);
}

// adds one partition's field partials (group g → merged group ids[g]) with compensated sums
function mergeField(f: MergedField, src: PartialAggregate['fields'][number], ids: Int32Array): void {
  const { sum, comp, n, min, max } = f;
  for (let g = 0; g < ids.length; g++) {
    const id = ids[g]!;
    const s = sum[id]!;
    const v = src.sum[g]!;
    const t = s + v;
    comp[id]! += (Math.abs(s) >= Math.abs(v) ? s - t + v : v - t + s) + src.comp[g]!;
    sum[id] = t;
    n[id]! += src.n[g]!;
    min[id] = lower(src.min[g]!, min[id]!);
    max[id] = -lower(-src.max[g]!, -max[id]!);
  }
}

// null when the group has no non-null value (and for sum/min/max of a count-only, non-numeric field)
function value(fn: Aggr, field: AggField, acc: MergedField, i: number): number | null {
  const n = acc.n[i]!;
  if (fn === 'count') return n;
  if (n === 0 || !isNumeric(field.column.type)) return null;
  const sum = acc.sum[i]! + acc.comp[i]!;
  if (fn === 'sum') return sum;
  if (fn === 'avg') return sum / n;
  return fn === 'min' ? acc.min[i]! : acc.max[i]!;
}

const emptyField = (cap: number): MergedField => ({
  sum: new Float64Array(cap),
  comp: new Float64Array(cap),
  n: new Float64Array(cap),
  min: new Float64Array(cap).fill(Infinity),
  max: new Float64Array(cap).fill(-Infinity),
});

function widen(a: Float64Array, cap: number, fill: number): Float64Array {
  const b = new Float64Array(cap).fill(fill);
  b.set(a);
  return b;
}

const mapKey = (k: KeyValue): unknown => (k instanceof Uint8Array ? `\u0000b${Buffer.from(k).toString('hex')}` : k === 0 ? 0 : k);

function compareKeys(a: KeyValue, b: KeyValue): number {
  if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
  const [x, y] = [a as number | bigint, b as number | bigint];
  if (x !== x) return y !== y ? 0 : 1; // NaN after numbers
  if (y !== y) return -1;
  return x < y ? -1 : x > y ? 1 : 0;
}

// the lower of two partial minima; -0 is below +0 (Math.min) and NaN (no value) loses
function lower(a: number, b: number): number {
  return a < b || (a === 0 && b === 0 && 1 / a < 0) ? a : b;
}
