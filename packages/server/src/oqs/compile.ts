// OqsNode → a predicate over JSON objects, built once per request (geometry literals read once).
import type { Geom } from '../geometry/jsts.js';
import type { CompareOp, GeometryOperand, OqsNode, Operand, SpatialOp } from './ast.js';
import { geometryOf, resolvePath } from './resolve.js';

/** A compiled filter: true when the object matches. */
export type Predicate = (obj: unknown) => boolean;

type Compilers = { [K in OqsNode['kind']]: (n: Extract<OqsNode, { kind: K }>) => Predicate };

/**
 * Compiles a parsed filter.
 * @example
 * const p = compileOqs(parseOqs(body)); resources.filter(p)
 */
export function compileOqs(n: OqsNode): Predicate {
  return (compilers[n.kind] as (n: OqsNode) => Predicate)(n);
}

const compilers: Compilers = {
  all: () => () => true,
  and: (n) => {
    const ps = n.items.map(compileOqs);
    return (o) => ps.every((p) => p(o));
  },
  or: (n) => {
    const ps = n.items.map(compileOqs);
    return (o) => ps.some((p) => p(o));
  },
  not: (n) => {
    const p = compileOqs(n.item);
    return (o) => !p(o);
  },
  compare: (n) => {
    const l = getter(n.left);
    const r = getter(n.right);
    const test = comparisons[n.op];
    return (o) => test(l(o), r(o));
  },
  in: (n) => {
    const v = getter(n.value);
    const list = getter(n.list);
    return (o) => {
      const xs = list(o);
      const x = v(o);
      return Array.isArray(xs) && xs.some((y) => deepEqual(x, y));
    };
  },
  null: (n) => {
    const v = getter(n.value);
    return (o) => v(o) == null;
  },
  nonNull: (n) => {
    const v = getter(n.value);
    return (o) => v(o) != null;
  },
  spatial: (n) => spatial(n.op, n.left, n.right),
  match: (n) => (o) => contains(o, n.example),
};

function getter(op: Operand): (o: unknown) => unknown {
  if (op.kind === 'literal') {
    const v = op.value;
    return () => v;
  }
  const path = op.path;
  return (o) => resolvePath(o, path);
}

const comparisons: Record<CompareOp, (a: unknown, b: unknown) => boolean> = {
  eq: (a, b) => deepEqual(a, b),
  gt: (a, b) => order(a, b) > 0,
  gte: (a, b) => order(a, b) >= 0,
  lt: (a, b) => order(a, b) < 0,
  lte: (a, b) => order(a, b) <= 0,
};

/**
 * Numbers compare with numbers, strings with strings (ISO dates order correctly), a bigint exactly with
 * a number or a decimal string (see `integerOrder`); anything else is NaN.
 */
function order(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'bigint' || typeof b === 'bigint') return integerOrder(a, b);
  return Number.NaN;
}

/**
 * A bigint literal (tabular v1's integers for int64 columns, whose rows hold a number, or a decimal
 * string beyond 2^53) against a value: exactly, a decimal string as the integer it writes; NaN for any
 * other value. The catalog's filters hold no bigints.
 */
function integerOrder(a: unknown, b: unknown): number {
  const [x, y] = [integer(a), integer(b)];
  if (x === undefined || y === undefined) return Number.NaN;
  return x < y ? -1 : x > y ? 1 : 0;
}

function integer(v: unknown): bigint | number | undefined {
  if (typeof v === 'bigint' || (typeof v === 'number' && !Number.isNaN(v))) return v;
  return typeof v === 'string' && /^-?[0-9]{1,20}$/.test(v) ? BigInt(v) : undefined;
}

/**
 * `a OP b` with exact jsts predicates; boxes are compared first, since every operator implies
 * intersecting boxes. (jsts 2.12's PreparedPolygon cannot be constructed, so literals are not prepared.)
 */
function spatial(op: SpatialOp, left: GeometryOperand, right: GeometryOperand): Predicate {
  const a = geomOf(left);
  const b = geomOf(right);
  const test = exact[op];
  return (o) => {
    const x = a(o);
    const y = b(o);
    if (x === undefined || y === undefined || x.isEmpty() || y.isEmpty()) return false;
    return x.getEnvelopeInternal().intersects(y.getEnvelopeInternal()) && related(test, x, y);
  };
}

// jsts throws (TopologyException) on a pair it cannot node, such as a self-intersecting ring stored
// before coverages were checked on write: such a pair does not match
function related(test: (x: Geom, y: Geom) => boolean, x: Geom, y: Geom): boolean {
  try {
    return test(x, y);
  } catch {
    return false;
  }
}

const exact: Record<SpatialOp, (x: Geom, y: Geom) => boolean> = {
  intersects: (x, y) => x.intersects(y),
  within: (x, y) => x.within(y),
  contains: (x, y) => x.contains(y),
  equals: (x, y) => x.equalsTopo(y),
};

function geomOf(g: GeometryOperand): (o: unknown) => Geom | undefined {
  if (g.kind === 'geometry') return () => g.geometry;
  const path = g.path;
  return (o) => geometryOf(resolvePath(o, path));
}

/** Whether `actual` holds every field of `example` (objects recursively, other values by equality). */
function contains(actual: unknown, example: unknown): boolean {
  if (typeof example !== 'object' || example === null || Array.isArray(example)) return deepEqual(actual, example);
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
  return Object.entries(example).every(([k, v]) => Object.hasOwn(actual, k) && contains((actual as Record<string, unknown>)[k], v));
}

/** Structural equality of JSON values; a bigint equals the number or decimal string of its integer. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'bigint' || typeof b === 'bigint') return integerOrder(a, b) === 0;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
