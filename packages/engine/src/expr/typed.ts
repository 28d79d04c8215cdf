// The type-checked expression tree: plain structured-cloneable data sent to worker threads.
import { type ArithOp, type CompareOp, type Handlers, type LogicalOp, visit } from './ast.js';

export type TimeUnitName = 's' | 'ms' | 'us' | 'ns';

/** Temporal column types; each is an integer count of its unit since the epoch. */
export type TemporalType = 'timestamp[s]' | 'timestamp[ms]' | 'timestamp[us]' | 'timestamp[ns]' | 'date32' | 'date64';

/**
 * The logical type of a value, which fixes its JS representation in kernels and in the reference:
 * `int` number, `int64` bigint, `float` number, `bool` boolean, `string` string (UTF-8 bytes in a
 * column), `binary` bytes, `date32` number (days), other temporal types bigint, `datetime`/`time`
 * bigint nanoseconds (literals not yet tied to a column), `null` the type of the literal null.
 */
export type ValueType = 'null' | 'bool' | 'int' | 'int64' | 'float' | 'string' | 'binary' | 'datetime' | 'time' | TemporalType;

/** Physical layout of a column, from its Arrow type. */
export type PhysicalKind =
  | 'int8' | 'int16' | 'int32' | 'uint8' | 'uint16' | 'uint32' | 'int64' | 'uint64'
  | 'float32' | 'float64' | 'bool' | 'utf8' | 'largeutf8' | 'binary' | 'largebinary'
  | 'timestamp' | 'date32' | 'date64';

/** A value that may be inlined in generated code or cloned to a worker. */
export type LiteralValue = null | boolean | number | bigint | string;

/**
 * A literal. Invariant: `value` has the representation of `type`, except that a temporal literal
 * tied to a column may be `k + 0.5` (a number) when the instant falls strictly between units k and
 * k + 1; integer columns compare with it exactly.
 */
export interface TypedLiteral {
  readonly kind: 'literal';
  readonly type: ValueType;
  readonly value: LiteralValue;
}

export interface TypedColumn {
  readonly kind: 'column';
  readonly name: string;
  readonly physical: PhysicalKind;
  /** Unit of a `timestamp` column, else null. */
  readonly unit: TimeUnitName | null;
  readonly type: ValueType;
}

export interface TypedCompare {
  readonly kind: 'compare';
  readonly op: CompareOp;
  readonly left: TypedExpr;
  readonly right: TypedExpr;
  readonly type: 'bool';
}

export interface TypedLogical {
  readonly kind: 'logical';
  readonly op: LogicalOp;
  readonly left: TypedExpr;
  readonly right: TypedExpr;
  readonly type: 'bool';
}

export interface TypedNot {
  readonly kind: 'not';
  readonly arg: TypedExpr;
  readonly type: 'bool';
}

export interface TypedIsNull {
  readonly kind: 'isnull';
  readonly arg: TypedExpr;
  readonly negated: boolean;
  readonly type: 'bool';
}

/** `arg in (list)`: the elements already have `arg`'s representation (see typecheck). */
export interface TypedIn {
  readonly kind: 'in';
  readonly arg: TypedExpr;
  readonly list: readonly TypedExpr[];
  readonly negated: boolean;
  readonly type: 'bool';
}

export interface TypedArith {
  readonly kind: 'arith';
  readonly op: ArithOp;
  readonly left: TypedExpr;
  readonly right: TypedExpr;
  readonly type: 'int' | 'int64' | 'float';
}

export interface TypedNeg {
  readonly kind: 'neg';
  readonly arg: TypedExpr;
  readonly type: 'int' | 'int64' | 'float';
}

/** A temporal value converted to a finer unit: `BigInt(arg) * factor`. */
export interface TypedRescale {
  readonly kind: 'rescale';
  readonly arg: TypedExpr;
  readonly factor: bigint;
  readonly type: TemporalType;
}

/**
 * The exact geometry predicate `target <op> wkt` (see `geo/lower.ts`): `args` is one geometry column
 * (WKT utf8 or WKB binary) followed by its four hidden box columns (xmin, ymin, xmax, ymax), or a
 * longitude and a latitude column forming a point. The type checker
 * always puts it behind the bounding-box comparisons, so kernels run it only on candidate rows.
 */
export interface TypedGeo {
  readonly kind: 'geo';
  readonly op: 'intersect' | 'contains' | 'within';
  readonly args: readonly TypedColumn[];
  /** The operand's WKT text (validated by the type checker; parsed again where the kernel is compiled). */
  readonly wkt: string;
  readonly type: 'bool';
}

/** A type-checked expression; contains no functions or class instances (bigint is fine). */
export type TypedExpr = TypedLiteral | TypedColumn | TypedCompare | TypedLogical | TypedNot | TypedIsNull | TypedIn | TypedArith | TypedNeg | TypedRescale | TypedGeo;

export type TypedKind = TypedExpr['kind'];

/** The direct subexpressions of each node kind. */
const childrenOf: Handlers<TypedExpr, readonly TypedExpr[]> = {
  literal: () => [],
  column: () => [],
  compare: (e) => [e.left, e.right],
  logical: (e) => [e.left, e.right],
  arith: (e) => [e.left, e.right],
  in: (e) => [e.arg, ...e.list],
  not: (e) => [e.arg],
  isnull: (e) => [e.arg],
  neg: (e) => [e.arg],
  rescale: (e) => [e.arg],
  geo: (e) => e.args,
};

/** Whether `expr` has a node of `kind` anywhere in it. */
export function containsKind(expr: TypedExpr, kind: TypedKind): boolean {
  return expr.kind === kind || visit(childrenOf, expr).some((c) => containsKind(c, kind));
}

/** The referenced columns, once each, in order of first appearance: the kernel's column order. */
export function columnNodes(expr: TypedExpr): TypedColumn[] {
  const found: TypedColumn[] = [];
  const walk = (e: TypedExpr): void => {
    if (e.kind === 'column' && !found.some((c) => c.name === e.name)) found.push(e);
    visit(childrenOf, e).forEach(walk);
  };
  walk(expr);
  return found;
}

/** The names of `columnNodes(expr)`. */
export function referencedColumns(expr: TypedExpr): string[] {
  return columnNodes(expr).map((c) => c.name);
}
