// The parsed (untyped) expression tree: what the parser builds and bind rewrites.

/**
 * Every node records `pos`, the 0-based offset of its principal token in the query (the operator
 * of a binary node, the name of a column), and `token`, that token's source text; errors point there.
 * Nodes are immutable: a stage that changes a tree builds a new one.
 */
interface Located {
  readonly pos: number;
  readonly token: string;
}

/** Literal types before type checking. Integers are exact (bigint) until typecheck picks a representation. */
export type Literal =
  | { readonly type: 'null'; readonly value: null }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'int'; readonly value: bigint }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'string'; readonly value: string }
  /** An instant: nanoseconds since 1970-01-01T00:00:00Z (from a bound datetime or date). */
  | { readonly type: 'datetime'; readonly value: bigint }
  /** A time of day: nanoseconds since midnight. */
  | { readonly type: 'time'; readonly value: bigint };

export type LiteralExpr = Located & { readonly kind: 'literal' } & Literal;

export interface ColumnExpr extends Located {
  readonly kind: 'column';
  readonly name: string;
}

/** `$name` (`name` set) or the `index`-th `?` (0-based, in order of appearance). */
export interface VarExpr extends Located {
  readonly kind: 'var';
  readonly name: string | null;
  readonly index: number;
}

export type UnaryOp = 'not' | 'neg';

export interface UnaryExpr extends Located {
  readonly kind: 'unary';
  readonly op: UnaryOp;
  readonly arg: Expr;
}

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';
export type ArithOp = '+' | '-' | '*' | '/' | '%';
export type LogicalOp = 'and' | 'or';
export type BinaryOp = CompareOp | ArithOp | LogicalOp;

export interface BinaryExpr extends Located {
  readonly kind: 'binary';
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
}

/** `arg is null` / `arg is not null`. */
export interface IsNullExpr extends Located {
  readonly kind: 'isnull';
  readonly arg: Expr;
  readonly negated: boolean;
}

/** `arg in (list...)` / `arg not in (list...)`; the list is never empty. */
export interface InExpr extends Located {
  readonly kind: 'in';
  readonly arg: Expr;
  readonly list: readonly Expr[];
  readonly negated: boolean;
}

/** `~` is the greedy bounding-box match; the others are exact geometry predicates. */
export type SpatialOp = 'intersect' | 'contains' | 'within' | '~';

/** `arg <op> operand` where operand is a WKT string literal or a bind variable. */
export interface SpatialExpr extends Located {
  readonly kind: 'spatial';
  readonly op: SpatialOp;
  readonly arg: Expr;
  readonly operand: Expr;
}

export interface CallExpr extends Located {
  readonly kind: 'call';
  readonly name: string;
  readonly args: readonly Expr[];
}

/** A parsed query expression. */
export type Expr = LiteralExpr | ColumnExpr | VarExpr | UnaryExpr | BinaryExpr | IsNullExpr | InExpr | SpatialExpr | CallExpr;

export type ExprKind = Expr['kind'];

/**
 * One handler per node kind: adding a kind breaks compilation until every visitor handles it.
 * @example
 * const count: Handlers<Expr, number> = { literal: () => 1, ... };
 */
export type Handlers<N extends { readonly kind: string }, R> = { readonly [K in N['kind']]: (node: Extract<N, { kind: K }>) => R };

/** Dispatches `node` to the handler of its kind. */
export function visit<N extends { readonly kind: string }, R>(handlers: Handlers<N, R>, node: N): R {
  return (handlers[node.kind as N['kind']] as (n: N) => R)(node);
}

const COMPARE_OPS: ReadonlySet<BinaryOp> = new Set<CompareOp>(['==', '!=', '<', '<=', '>', '>=']);
const ARITH_OPS: ReadonlySet<BinaryOp> = new Set<ArithOp>(['+', '-', '*', '/', '%']);

export const isCompareOp = (op: BinaryOp): op is CompareOp => COMPARE_OPS.has(op);
export const isArithOp = (op: BinaryOp): op is ArithOp => ARITH_OPS.has(op);
