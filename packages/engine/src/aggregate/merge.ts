// Merges partial aggregates (in partition order) and shapes the results: final values or the wire's partials.
import { Binary, Bool, type DataType, Float64, Table, Utf8, type Vector, makeData, makeVector, vectorFromArray } from 'apache-arrow';
import { isNumeric } from '../expr/types.js';
import type { Aggr } from '../schema/metadata.js';
import type { KeyValue, PartialAggregate } from './partial.js';
import type { AggField } from './spec.js';

/** Accumulated groups across partitions. */
export class Merged {
  readonly keys: KeyValue[] = [];
  readonly count: number[] = [];
  readonly fields: { sum: number[]; comp: number[]; n: number[]; min: number[]; max: number[] }[];
  private readonly ids = new Map<unknown, number>();

  constructor(fields: number) {
    this.fields = Array.from({ length: fields }, () => ({ sum: [], comp: [], n: [], min: [], max: [] }));
  }

  /** Adds one partition's partials; call in partition order (sums are compensated, min/max exact). */
  add(p: PartialAggregate): void {
    p.keys.forEach((key, g) => {
      const k = mapKey(key);
      let id = this.ids.get(k);
      if (id === undefined) {
        this.ids.set(k, (id = this.keys.length));
        this.keys.push(key);
        this.count.push(0);
        for (const f of this.fields) f.sum.push(0), f.comp.push(0), f.n.push(0), f.min.push(Infinity), f.max.push(-Infinity);
      }
      this.count[id]! += p.count[g]!;
      p.fields.forEach((src, i) => {
        const f = this.fields[i]!;
        const [s, v] = [f.sum[id]!, src.sum[g]!];
        const t = s + v;
        f.comp[id]! += (Math.abs(s) >= Math.abs(v) ? s - t + v : v - t + s) + src.comp[g]!;
        f.sum[id] = t;
        f.n[id]! += src.n[g]!;
        f.min[id] = lower(src.min[g]!, f.min[id]!);
        f.max[id] = -lower(-src.max[g]!, -f.max[id]!);
      });
    });
  }

  /**
   * Indices of the groups with rows (an empty bucket is left out), sorted by key: null last,
   * numbers/bigints numerically (NaN after them), strings by code point, false < true.
   */
  order(): number[] {
    return this.keys.map((_, i) => i).filter((i) => this.count[i]! > 0).sort((a, b) => compareKeys(this.keys[a]!, this.keys[b]!));
  }
}

/**
 * The final table: the key column (named `keyName`, type `keyType`), one column per field with its
 * aggregate (avg = sum / count; an empty group — no non-null values — gives null for avg, sum, min
 * and max, and 0 for count), then `*`, the row count.
 */
export function finalTable(m: Merged, fields: readonly AggField[], keyName: string, keyType: DataType): Table {
  const order = m.order();
  const columns: Record<string, Vector> = { [keyName]: keyVector(keyType, order.map((i) => m.keys[i]!)) };
  fields.forEach((f, j) => {
    const acc = m.fields[j]!;
    columns[f.name] = vectorFromArray(order.map((i) => value(f.fn, f, acc, i)), new Float64());
  });
  columns['*'] = vectorFromArray(order.map((i) => m.count[i]!), new Float64());
  return new Table(columns);
}

/**
 * The wire's partial aggregates (see wire-protocol.md, aggregate): the key in a column named "",
 * `<f>_sum`, `<f>_count`, `<f>_min`, `<f>_max` per field, and `*`; clients merge rows by key.
 */
export function partialTable(m: Merged, fields: readonly AggField[], keyType: DataType): Table {
  const order = m.order();
  const columns: Record<string, Vector> = { '': keyVector(keyType, order.map((i) => m.keys[i]!)) };
  fields.forEach((f, j) => {
    const acc = m.fields[j]!;
    for (const part of ['sum', 'count', 'min', 'max'] as const) {
      columns[`${f.name}_${part}`] = vectorFromArray(order.map((i) => value(part, f, acc, i)), new Float64());
    }
  });
  columns['*'] = vectorFromArray(order.map((i) => m.count[i]!), new Float64());
  return new Table(columns);
}

// null when the group has no non-null value (and for sum/min/max of a count-only, non-numeric field)
function value(fn: Aggr, field: AggField, acc: Merged['fields'][number], i: number): number | null {
  const n = acc.n[i]!;
  if (fn === 'count') return n;
  if (n === 0 || !isNumeric(field.column.type)) return null;
  const sum = acc.sum[i]! + acc.comp[i]!;
  if (fn === 'sum') return sum;
  if (fn === 'avg') return sum / n;
  return fn === 'min' ? acc.min[i]! : acc.max[i]!;
}

/** A key column of `type` from JS key values (storage domain: bigint for 64-bit and temporal types). */
function keyVector(type: DataType, keys: KeyValue[]): Vector {
  if (type instanceof Utf8 || type instanceof Bool || type instanceof Float64 || type instanceof Binary) return vectorFromArray(keys as never[], type);
  const ArrayType = (type as unknown as { ArrayType: new (n: number) => ArrayLike<number | bigint> & { [i: number]: number | bigint } }).ArrayType;
  const values = new ArrayType(keys.length);
  const validity = new Uint8Array(Math.ceil(keys.length / 8));
  let nulls = 0;
  keys.forEach((k, i) => {
    if (k === null) return void nulls++;
    validity[i >> 3]! |= 1 << (i & 7);
    values[i] = values instanceof BigInt64Array || values instanceof BigUint64Array ? BigInt(k as bigint) : Number(k);
  });
  return makeVector(makeData({ type, length: keys.length, nullCount: nulls, nullBitmap: nulls > 0 ? validity : undefined, data: values } as never));
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
