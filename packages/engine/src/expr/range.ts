// Value ranges of expressions over a partition's zone maps, for pruning.
import type { ZoneMaps } from './kernel.js';
import { negate } from './scalar.js';
import type { TypedExpr } from './typed.js';
import { representation } from './types.js';

export type Bound = number | bigint | string | boolean;

/**
 * The non-null values an expression takes on a partition's rows: within `bounds` (inclusive; null
 * when there is no such value), plus possibly NaN when `nan`.
 */
export interface Range {
  readonly bounds: readonly [Bound, Bound] | null;
  readonly nan: boolean;
}

const ALL_NULL: Range = { bounds: null, nan: false };

/** The range of `e`, or null when it cannot be bounded. */
export function range(e: TypedExpr, zones: ZoneMaps): Range | null {
  switch (e.kind) {
    case 'literal':
      if (e.value === null) return ALL_NULL;
      if (typeof e.value === 'number' && Number.isNaN(e.value)) return { bounds: null, nan: true };
      return { bounds: [e.value, e.value], nan: false };
    case 'column':
      return columnRange(e, zones);
    case 'neg': {
      const r = range(e.arg, zones);
      if (r === null || r.bounds === null) return r;
      const [lo, hi] = r.bounds as [number | bigint, number | bigint];
      return { bounds: [negate(hi, e.type), negate(lo, e.type)], nan: r.nan };
    }
    case 'rescale': {
      const r = range(e.arg, zones);
      if (r === null || r.bounds === null) return r;
      const [lo, hi] = r.bounds as [number | bigint, number | bigint];
      return { bounds: [BigInt(lo) * e.factor, BigInt(hi) * e.factor], nan: false };
    }
    default:
      return null;
  }
}

// min/max of a column; float columns may also hold NaN, which zone maps do not record
function columnRange(e: TypedExpr & { kind: 'column' }, zones: ZoneMaps): Range | null {
  const stats = zones[e.name];
  if (stats === undefined || e.type === 'binary') return null;
  if (stats.nullCount >= stats.rows) return ALL_NULL;
  const float = e.type === 'float';
  const { min, max } = stats;
  if (min === null || max === null) return float ? { bounds: null, nan: true } : null;
  if (!fits(min, e.type) || !fits(max, e.type)) return null;
  return { bounds: [min, max], nan: float && (stats.nanCount === undefined || stats.nanCount > 0) };
}

function fits(bound: Bound, type: TypedExpr['type']): boolean {
  const rep = representation(type);
  if (rep === 'number' || rep === 'bigint') return typeof bound === 'bigint' || (typeof bound === 'number' && !Number.isNaN(bound));
  return typeof bound === rep;
}
