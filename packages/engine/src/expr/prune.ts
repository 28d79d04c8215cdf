// Partition pruning: abstract interpretation of a typed filter over zone maps (value ranges).
import { type CompareOp, type Handlers, visit } from './ast.js';
import type { ZoneMaps } from './kernel.js';
import { type Range, range } from './range.js';
import { compareScalars } from './scalar.js';
import type { TypedExpr } from './typed.js';

/**
 * Which truth values a boolean expression can take on some row of a partition (null is neither).
 * Over-approximations: `canTrue === false` is a proof that no row is TRUE.
 */
interface Outcome {
  readonly canTrue: boolean;
  readonly canFalse: boolean;
}

const MAYBE: Outcome = { canTrue: true, canFalse: true };
const NEVER: Outcome = { canTrue: false, canFalse: false };

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

function outcome(e: TypedExpr, zones: ZoneMaps): Outcome {
  return visit(outcomes(zones), e);
}

function outcomes(zones: ZoneMaps): Handlers<TypedExpr, Outcome> {
  const of = (e: TypedExpr): Outcome => outcome(e, zones);
  const maybe = (): Outcome => MAYBE;
  return {
    literal: (e) => ({ canTrue: e.value === true, canFalse: e.value === false }),
    column: (e) => {
      const r = range(e, zones);
      if (r === null) return MAYBE;
      if (r.bounds === null) return NEVER;
      return { canTrue: r.bounds[1] === true, canFalse: r.bounds[0] === false };
    },
    compare: (e) => compareOutcome(e.op, range(e.left, zones), range(e.right, zones)),
    logical: (e) => {
      const [a, b] = [of(e.left), of(e.right)];
      if (e.op === 'and') return { canTrue: a.canTrue && b.canTrue, canFalse: a.canFalse || b.canFalse };
      return { canTrue: a.canTrue || b.canTrue, canFalse: a.canFalse && b.canFalse };
    },
    not: (e) => swap(of(e.arg)),
    isnull: (e) => {
      const stats = e.arg.kind === 'column' ? zones[e.arg.name] : undefined;
      if (stats === undefined) return MAYBE;
      const isNull = { canTrue: stats.nullCount > 0, canFalse: stats.nullCount < stats.rows };
      return e.negated ? swap(isNull) : isNull;
    },
    in: (e) => {
      const arg = range(e.arg, zones);
      // Kleene OR over the equalities: TRUE if one can be, FALSE only if all can be
      const found = e.list
        .map((item) => compareOutcome('==', arg, range(item, zones)))
        .reduce((acc, o) => ({ canTrue: acc.canTrue || o.canTrue, canFalse: acc.canFalse && o.canFalse }), { canTrue: false, canFalse: true });
      return e.negated ? swap(found) : found;
    },
    arith: maybe,
    neg: maybe,
    rescale: maybe,
    // the box comparisons beside it prune; the exact predicate itself is unbounded
    geo: maybe,
  };
}

const swap = (o: Outcome): Outcome => ({ canTrue: o.canFalse, canFalse: o.canTrue });

// interval comparison; NaN rows compare false (but `!=` true) with every non-null value
function compareOutcome(op: CompareOp, a: Range | null, b: Range | null): Outcome {
  if (a === null || b === null) return MAYBE;
  let canTrue = false;
  let canFalse = false;
  if ((a.nan && (b.bounds !== null || b.nan)) || (b.nan && a.bounds !== null)) {
    if (op === '!=') canTrue = true;
    else canFalse = true;
  }
  if (a.bounds !== null && b.bounds !== null) {
    const [[a1, a2], [b1, b2]] = [a.bounds, b.bounds];
    const lt = (x: typeof a1, y: typeof a1): boolean => compareScalars('<', x, y);
    const le = (x: typeof a1, y: typeof a1): boolean => compareScalars('<=', x, y);
    const point = compareScalars('==', a1, a2) && compareScalars('==', b1, b2) && compareScalars('==', a1, b1);
    const overlap = le(a1, b2) && le(b1, a2);
    const ranges: Record<CompareOp, Outcome> = {
      '<': { canTrue: lt(a1, b2), canFalse: le(b1, a2) },
      '<=': { canTrue: le(a1, b2), canFalse: lt(b1, a2) },
      '>': { canTrue: lt(b1, a2), canFalse: le(a1, b2) },
      '>=': { canTrue: le(b1, a2), canFalse: lt(a1, b2) },
      '==': { canTrue: overlap, canFalse: !point },
      '!=': { canTrue: !point, canFalse: overlap },
    };
    canTrue ||= ranges[op].canTrue;
    canFalse ||= ranges[op].canFalse;
  }
  return { canTrue, canFalse };
}
