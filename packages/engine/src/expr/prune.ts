// Partition pruning: abstract interpretation of a typed filter over zone maps (value ranges).
import { type CompareOp, type Handlers, visit } from './ast.js';
import type { ZoneMaps } from './kernel.js';
import { SEARCHED_IN, inOutcome, literalList } from './prune-in.js';
import { type Range, range } from './range.js';
import { compareScalars } from './scalar.js';
import type { TypedExpr } from './typed.js';

/**
 * Which truth values a boolean expression can take on some row of a partition.
 * Over-approximations: `canTrue === false` is a proof that no row is TRUE; `canFalse` and
 * `canNull` both false prove that every row is TRUE.
 */
interface Outcome {
  readonly canTrue: boolean;
  readonly canFalse: boolean;
  readonly canNull: boolean;
}

const MAYBE: Outcome = { canTrue: true, canFalse: true, canNull: true };

/**
 * A sound partition test: false means no row of the partition can satisfy the filter. Uses the
 * zone maps' min/max/nullCount for comparisons, `in`, `is null`, `and`/`or`/`not`; anything it
 * cannot bound (arithmetic, missing stats, binary columns) is "maybe".
 * @example
 * zonePredicate(typed)({ depth: { min: 0, max: 90, nullCount: 0, rows: 10 } }) // false for 'depth > 100'
 */
export function zonePredicate(typed: TypedExpr): (zones: ZoneMaps) => boolean {
  return (zones) => outcome(typed, zones).canTrue;
}

/**
 * The converse test: true only when the zone maps prove that the filter is TRUE on every row of
 * the partition (no row false, null or NaN-compared), so a count needs no scan and a select no kernel.
 * @example
 * zoneAllMatch(typed)({ depth: { min: 200, max: 900, nullCount: 0, rows: 10, nanCount: 0 } }) // true for 'depth > 100'
 */
export function zoneAllMatch(typed: TypedExpr): (zones: ZoneMaps) => boolean {
  return (zones) => provesAll(outcome(typed, zones));
}

// no row can be false, null or NaN-compared: every row is TRUE
const provesAll = (o: Outcome): boolean => !o.canFalse && !o.canNull;

/** `zonePredicate` and `zoneAllMatch` of one filter, for the partitions of a table (see `zoneTests`). */
export interface ZoneTests {
  readonly mayMatch: (zones: ZoneMaps) => boolean;
  readonly allMatch: (zones: ZoneMaps) => boolean;
}

/**
 * `zonePredicate` and `zoneAllMatch` together, each partition's verdict remembered per zone-map
 * object (weakly): a partition's zone maps never change once made, and a plan lives as long as its
 * query repeats (read/plan.ts), so a query in a loop interprets each partition's pruning once
 * instead of up to three times a read (the candidates, a count's all-match test, the task's). Only
 * for zone maps that are never changed after their first test (partition records).
 */
export function zoneTests(typed: TypedExpr): ZoneTests {
  const seen = new WeakMap<ZoneMaps, number>();
  const verdict = (zones: ZoneMaps): number => {
    let v = seen.get(zones);
    if (v === undefined) {
      const o = outcome(typed, zones);
      v = (o.canTrue ? MAY : 0) | (provesAll(o) ? ALL : 0);
      seen.set(zones, v);
    }
    return v;
  };
  return { mayMatch: (zones) => (verdict(zones) & MAY) !== 0, allMatch: (zones) => (verdict(zones) & ALL) !== 0 };
}

const MAY = 1;
const ALL = 2;

// one set of handlers per test, shared by the whole tree (sorted-partition searches test dozens of zone maps per partition)
function outcome(e: TypedExpr, zones: ZoneMaps): Outcome {
  return visit(outcomes(zones), e);
}

function outcomes(zones: ZoneMaps): Handlers<TypedExpr, Outcome> {
  const of = (e: TypedExpr): Outcome => visit(handlers, e);
  const maybe = (): Outcome => MAYBE;
  const handlers: Handlers<TypedExpr, Outcome> = {
    literal: (e) => ({ canTrue: e.value === true, canFalse: e.value === false, canNull: e.value === null }),
    column: (e) => {
      const r = range(e, zones);
      if (r === null) return MAYBE;
      const canNull = nullable(e, zones);
      if (r.bounds === null) return { canTrue: false, canFalse: false, canNull };
      return { canTrue: r.bounds[1] === true, canFalse: r.bounds[0] === false, canNull };
    },
    compare: (e) => ({ ...compareOutcome(e.op, range(e.left, zones), range(e.right, zones)), canNull: nullable(e.left, zones) || nullable(e.right, zones) }),
    logical: (e) => {
      const [a, b] = [of(e.left), of(e.right)];
      const canNull = a.canNull || b.canNull;
      if (e.op === 'and') return { canTrue: a.canTrue && b.canTrue, canFalse: a.canFalse || b.canFalse, canNull };
      return { canTrue: a.canTrue || b.canTrue, canFalse: a.canFalse && b.canFalse, canNull };
    },
    not: (e) => swap(of(e.arg)),
    isnull: (e) => {
      const stats = e.arg.kind === 'column' ? zones[e.arg.name] : undefined;
      if (stats === undefined) return { ...MAYBE, canNull: false };
      const isNull = { canTrue: stats.nullCount > 0, canFalse: stats.nullCount < stats.rows, canNull: false };
      return e.negated ? swap(isNull) : isNull;
    },
    in: (e) => {
      const arg = range(e.arg, zones);
      // a long literal list: searched (compared item by item, 100k items over 100 partitions took seconds)
      const list = e.list.length > SEARCHED_IN ? literalList(e) : null;
      // Kleene OR over the equalities: TRUE if one can be, FALSE only if all can be
      const found = list
        ? inOutcome(arg, list)
        : e.list
            .map((item) => compareOutcome('==', arg, range(item, zones)))
            .reduce((acc, o) => ({ canTrue: acc.canTrue || o.canTrue, canFalse: acc.canFalse && o.canFalse }), { canTrue: false, canFalse: true });
      const canNull = nullable(e.arg, zones) || (list ? list.nulls : e.list.some((item) => nullable(item, zones)));
      return e.negated ? swap({ ...found, canNull }) : { ...found, canNull };
    },
    arith: maybe,
    neg: maybe,
    rescale: maybe,
    // the box comparisons beside it prune; the exact predicate itself is unbounded
    geo: maybe,
  };
  return handlers;
}

const swap = (o: Outcome): Outcome => ({ canTrue: o.canFalse, canFalse: o.canTrue, canNull: o.canNull });

// whether `e` may be null on some row: a column with nulls (or without stats), a null literal, anything else computed
function nullable(e: TypedExpr, zones: ZoneMaps): boolean {
  if (e.kind === 'literal') return e.value === null;
  if (e.kind === 'column') return (zones[e.name]?.nullCount ?? 1) > 0;
  return true;
}

// interval comparison; NaN rows compare false (but `!=` true) with every non-null value
function compareOutcome(op: CompareOp, a: Range | null, b: Range | null): Pick<Outcome, 'canTrue' | 'canFalse'> {
  if (a === null || b === null) return MAYBE;
  let canTrue = false;
  let canFalse = false;
  if ((a.nan && (b.bounds !== null || b.nan)) || (b.nan && a.bounds !== null)) {
    if (op === '!=') canTrue = true;
    else canFalse = true;
  }
  if (a.bounds !== null && b.bounds !== null) {
    const [a1, a2] = a.bounds;
    const [b1, b2] = b.bounds;
    // only the operator's own test (no table of all six: this runs per zone map and per probe)
    const lt = (x: typeof a1, y: typeof a1): boolean => (typeof x === 'number' && typeof y === 'number' ? x < y : compareScalars('<', x, y));
    const le = (x: typeof a1, y: typeof a1): boolean => (typeof x === 'number' && typeof y === 'number' ? x <= y : compareScalars('<=', x, y));
    const eq = (x: typeof a1, y: typeof a1): boolean => (typeof x === 'number' && typeof y === 'number' ? x === y : compareScalars('==', x, y));
    switch (op) {
      case '<':
        canTrue ||= lt(a1, b2);
        canFalse ||= le(b1, a2);
        break;
      case '<=':
        canTrue ||= le(a1, b2);
        canFalse ||= lt(b1, a2);
        break;
      case '>':
        canTrue ||= lt(b1, a2);
        canFalse ||= le(a1, b2);
        break;
      case '>=':
        canTrue ||= le(b1, a2);
        canFalse ||= lt(a1, b2);
        break;
      default: {
        const point = eq(a1, a2) && eq(b1, b2) && eq(a1, b1);
        const overlap = le(a1, b2) && le(b1, a2);
        canTrue ||= op === '==' ? overlap : !point;
        canFalse ||= op === '==' ? !point : overlap;
      }
    }
  }
  return { canTrue, canFalse };
}
