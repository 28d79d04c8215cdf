// Test fixture: random schemas and chunks (Arrow vectors + the same values as plain JS), zone maps.
import { Bool, type DataType, DateDay, Field, Float64, Int32, Int64, Schema, TimestampMillisecond, Utf8, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { columnArrays } from '../exec/arrays.js';
import type { ColumnArrays, ZoneMaps, ZoneStats } from './kernel.js';
import { compareBytes } from './scalar.js';

export type Kind = 'int32' | 'int64' | 'float64' | 'bool' | 'utf8' | 'timestamp' | 'date32';
export type Cell = number | bigint | boolean | string | null;

export interface Chunk {
  readonly schema: Schema;
  readonly kinds: Readonly<Record<string, Kind>>;
  readonly length: number;
  /** Values in the storage domain (what `evaluateRow`'s row function returns), by column. */
  readonly values: Readonly<Record<string, readonly Cell[]>>;
}

/** Around 2020-09-13 in ms; timestamps and dates stay close so literals hit them. */
export const BASE_MS = 1_600_000_000_000;
export const BASE_DAY = Math.floor(BASE_MS / 86_400_000);

const TYPES: Readonly<Record<Kind, () => DataType>> = {
  int32: () => new Int32(),
  int64: () => new Int64(),
  float64: () => new Float64(),
  bool: () => new Bool(),
  utf8: () => new Utf8(),
  timestamp: () => new TimestampMillisecond(),
  date32: () => new DateDay(),
};

export const CHARS = ['a', 'b', 'é', '\uE000', '\uFFFF', '😀', 'Z'];

/** A non-null value of a column kind, biased towards small domains so comparisons often tie. */
export function valueOf(kind: Kind): fc.Arbitrary<Exclude<Cell, null>> {
  switch (kind) {
    case 'int32': return fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -20, max: 20 }) }, { weight: 1, arbitrary: fc.constantFrom(-(2 ** 31), 2 ** 31 - 1) });
    case 'int64': return fc.oneof({ weight: 6, arbitrary: fc.bigInt({ min: -20n, max: 20n }) }, { weight: 1, arbitrary: fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n) });
    case 'float64': return fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: -80, max: 80 }).map((k) => k / 4) },
      { weight: 1, arbitrary: fc.constant(NaN) },
      { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity, -0, 0.1, 2 ** 53 + 2) },
      { weight: 1, arbitrary: fc.double({ noNaN: true }) },
    );
    case 'bool': return fc.boolean();
    case 'utf8': return fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 3 });
    case 'timestamp': return fc.integer({ min: -5, max: 5 }).map((k) => BigInt(BASE_MS + k));
    case 'date32': return fc.integer({ min: -5, max: 5 }).map((k) => BASE_DAY + k);
  }
}

/** The cells of one column: some columns have no nulls, some draw from a narrow domain of 1–3 values. */
function cellsOf(kind: Kind, length: number): fc.Arbitrary<Cell[]> {
  return fc.tuple(fc.boolean(), fc.option(fc.array(valueOf(kind), { minLength: 1, maxLength: 3 }), { nil: null })).chain(([noNulls, domain]) => {
    const value: fc.Arbitrary<Cell> = domain === null ? valueOf(kind) : fc.constantFrom(...domain);
    return fc.array(noNulls ? value : fc.option(value, { nil: null, freq: 4 }), { minLength: length, maxLength: length });
  });
}

/** A schema of 2–5 columns `c0..c4` of random kinds and a chunk of 0–120 rows. */
export const chunkArb: fc.Arbitrary<Chunk> = fc
  .tuple(fc.array(fc.constantFrom<Kind>('int32', 'int64', 'float64', 'bool', 'utf8', 'timestamp', 'date32'), { minLength: 2, maxLength: 5 }), fc.integer({ min: 0, max: 120 }))
  .chain(([kinds, length]) =>
    fc.tuple(...kinds.map((kind) => cellsOf(kind, length))).map((columns) => {
      const names = kinds.map((_, i) => `c${i}`);
      return {
        schema: new Schema(names.map((name, i) => new Field(name, TYPES[kinds[i]!](), true))),
        kinds: Object.fromEntries(names.map((name, i) => [name, kinds[i]!])),
        length,
        values: Object.fromEntries(names.map((name, i) => [name, columns[i]!])),
      };
    }),
  );

/** The chunk's columns as kernel arrays, in `names` order, built with Arrow's builders. */
export function arraysOf(chunk: Chunk, names: readonly string[]): ColumnArrays[] {
  return names.map((name) => {
    const kind = chunk.kinds[name]!;
    const cells = chunk.values[name]!;
    // DateDay builders take epoch milliseconds
    const input = kind === 'date32' ? cells.map((v) => (v === null ? null : (v as number) * 86_400_000)) : cells;
    const vector = vectorFromArray(input as unknown[], TYPES[kind]());
    if (vector.data.length !== 1) throw new Error('expected one chunk');
    return columnArrays(vector.data[0]!);
  });
}

/** Exact zone maps of the chunk (NaN ignored, strings in UTF-8 byte order). */
export function zonesOf(chunk: Chunk): ZoneMaps {
  return Object.fromEntries(Object.entries(chunk.values).map(([name, cells]) => [name, statsOf(cells)]));
}

function statsOf(cells: readonly Cell[]): ZoneStats {
  const present = cells.filter((v): v is Exclude<Cell, null> => v !== null && !(typeof v === 'number' && Number.isNaN(v)));
  const less = (a: Exclude<Cell, null>, b: Exclude<Cell, null>): boolean =>
    typeof a === 'string' ? compareBytes(new TextEncoder().encode(a), new TextEncoder().encode(b as string)) < 0 : a < b;
  const min = present.reduce<Exclude<Cell, null> | null>((m, v) => (m === null || less(v, m) ? v : m), null);
  const max = present.reduce<Exclude<Cell, null> | null>((m, v) => (m === null || less(m, v) ? v : m), null);
  const numbers = cells.some((v) => typeof v === 'number');
  const stats = { min, max, nullCount: cells.filter((v) => v === null).length, rows: cells.length };
  return numbers ? { ...stats, nanCount: cells.filter((v) => typeof v === 'number' && Number.isNaN(v)).length } : stats;
}
