// Constant folding: builds typed nodes, evaluating them when their operands are literals.
import type { ArithOp, CompareOp, LogicalOp } from './ast.js';
import { and3, arithmetic, compareScalars, negate, not3, or3, type Scalar } from './scalar.js';
import type { LiteralValue, TypedExpr, TypedLiteral, ValueType } from './typed.js';
import type { NumericType } from './types.js';

export const literal = (type: ValueType, value: LiteralValue): TypedLiteral => ({ kind: 'literal', type, value });

export const NULL: TypedLiteral = literal('null', null);

const isLiteral = (e: TypedExpr): e is TypedLiteral => e.kind === 'literal';
const truth = (e: TypedLiteral): boolean | null => e.value as boolean | null;

/** `left op right`; a literal when both are literals or either is null. */
export function compare(op: CompareOp, left: TypedExpr, right: TypedExpr): TypedExpr {
  if (isNullLiteral(left) || isNullLiteral(right)) return NULL;
  if (isLiteral(left) && isLiteral(right)) return literal('bool', compareScalars(op, left.value as Scalar, right.value as Scalar));
  return { kind: 'compare', op, left, right, type: 'bool' };
}

/** Kleene `and`/`or`, simplified when a side is a literal (`true and x` is x, `false and x` false). */
export function logical(op: LogicalOp, left: TypedExpr, right: TypedExpr): TypedExpr {
  if (isLiteral(left) && isLiteral(right)) {
    const value = (op === 'and' ? and3 : or3)(truth(left), truth(right));
    return value === null ? NULL : literal('bool', value);
  }
  const absorbing = op === 'or';
  for (const [a, b] of [[left, right], [right, left]] as const) {
    if (isLiteral(a) && a.value === absorbing) return a;
    if (isLiteral(a) && a.value === !absorbing) return b;
  }
  return { kind: 'logical', op, left, right, type: 'bool' };
}

export function not(arg: TypedExpr): TypedExpr {
  if (!isLiteral(arg)) return { kind: 'not', arg, type: 'bool' };
  const value = not3(truth(arg));
  return value === null ? NULL : literal('bool', value);
}

export function isNull(arg: TypedExpr, negated: boolean): TypedExpr {
  if (isLiteral(arg)) return literal('bool', (arg.value === null) !== negated);
  return { kind: 'isnull', arg, negated, type: 'bool' };
}

/** `arg in (list)`: Kleene OR of the equalities. */
export function inList(arg: TypedExpr, list: readonly TypedExpr[], negated: boolean): TypedExpr {
  if (isNullLiteral(arg)) return NULL;
  if (!isLiteral(arg) || !list.every(isLiteral)) return { kind: 'in', arg, list, negated, type: 'bool' };
  const found = list.reduce<boolean | null>((acc, e) => or3(acc, e.value === null ? null : compareScalars('==', arg.value as Scalar, e.value as Scalar)), false);
  const value = negated ? not3(found) : found;
  return value === null ? NULL : literal('bool', value);
}

export function arith(op: ArithOp, left: TypedExpr, right: TypedExpr, type: NumericType): TypedExpr {
  if (isNullLiteral(left) || isNullLiteral(right)) return NULL;
  if (op === '%' && type !== 'float' && isLiteral(right) && Number(right.value) === 0) return NULL;
  if (!isLiteral(left) || !isLiteral(right)) return { kind: 'arith', op, left, right, type };
  const value = arithmetic(op, left.value as number | bigint, right.value as number | bigint, type);
  return value === null ? NULL : literal(type, value);
}

export function neg(arg: TypedExpr, type: NumericType): TypedExpr {
  if (!isLiteral(arg)) return { kind: 'neg', arg, type };
  return arg.value === null ? NULL : literal(type, negate(arg.value as number | bigint, type));
}

export function isNullLiteral(e: TypedExpr): boolean {
  return e.kind === 'literal' && e.value === null;
}
