// Pruning `x in (...)` over a long list of literals: the items sorted once, each partition's range found by binary search.
import type { Bound, Range } from './range.js';
import { compareScalars } from './scalar.js';
import type { TypedExpr } from './typed.js';

/** Lists longer than this are searched; shorter ones are compared item by item (`prune.ts`). */
export const SEARCHED_IN = 8;

/** The literal items of an in-list: the values sorted (no NaN, no null), and whether NaN or null is among them. */
export interface LiteralList {
  readonly values: readonly Bound[];
  readonly nan: boolean;
  readonly nulls: boolean;
}

const lists = new WeakMap<TypedExpr, LiteralList | null>();

/** The items of `e` (an `in` node) as a LiteralList, or null when one is not a literal; made once per node. */
export function literalList(e: TypedExpr & { kind: 'in' }): LiteralList | null {
  let list = lists.get(e);
  if (list !== undefined) return list;
  list = null;
  if (e.list.every((x) => x.kind === 'literal')) {
    const all = e.list.map((x) => (x as TypedExpr & { kind: 'literal' }).value);
    const isNan = (v: unknown) => typeof v === 'number' && Number.isNaN(v);
    const values = all.filter((v): v is Bound => v !== null && !isNan(v)).sort(order);
    list = values.length + all.filter((v) => v === null || isNan(v)).length === all.length ? { values, nan: all.some(isNan), nulls: all.includes(null) } : null;
  }
  lists.set(e, list);
  return list;
}

/**
 * Whether `arg in (list)` can be TRUE and FALSE on a partition where arg takes values in `a`: the
 * Kleene OR of `arg == item` over the items, each judged as `compareOutcome` judges one equality
 * (property tested against it), in O(log n).
 */
export function inOutcome(a: Range | null, list: LiteralList): { canTrue: boolean; canFalse: boolean } {
  if (a === null) return { canTrue: true, canFalse: true };
  const { values } = list;
  let canTrue = false;
  let point = false;
  if (a.bounds !== null) {
    const [lo, hi] = a.bounds;
    const i = lowerBound(values, lo);
    canTrue = i < values.length && compareScalars('<=', values[i]!, hi);
    point = canTrue && compareScalars('==', lo, hi) && compareScalars('==', values[i]!, lo);
  }
  // a null item is never FALSE; a NaN item is FALSE against any value; a value against NaN rows or a range that is not it
  const canFalse =
    !list.nulls && (!list.nan || a.nan || a.bounds !== null) && (values.length === 0 || a.nan || (a.bounds !== null && !point));
  return { canTrue, canFalse };
}

function order(x: Bound, y: Bound): number {
  return compareScalars('<', x, y) ? -1 : compareScalars('<', y, x) ? 1 : 0;
}

// the first index whose value is not below `v`
function lowerBound(values: readonly Bound[], v: Bound): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareScalars('<', values[mid]!, v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
