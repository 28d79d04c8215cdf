// Canonical text of a typed expression: equal keys mean interchangeable kernels (bigint-safe).
import { type Handlers, visit } from './ast.js';
import type { LiteralValue, TypedExpr } from './typed.js';

/**
 * A canonical S-expression of `typed`, independent of spacing, keyword case and bind-variable
 * form; workers cache compiled kernels by it.
 * @example
 * canonicalKey(prepareFilter('depth>5', schema).typed) // '(> (col "depth" float64) int:5)'
 */
export function canonicalKey(typed: TypedExpr): string {
  return visit(keys, typed);
}

const key = (e: TypedExpr): string => visit(keys, e);

const keys: Handlers<TypedExpr, string> = {
  literal: (e) => `${e.type}:${literalText(e.value)}`,
  column: (e) => `(col ${JSON.stringify(e.name)} ${e.physical}${e.unit === null ? '' : `[${e.unit}]`})`,
  compare: (e) => `(${e.op} ${key(e.left)} ${key(e.right)})`,
  logical: (e) => `(${e.op} ${key(e.left)} ${key(e.right)})`,
  not: (e) => `(not ${key(e.arg)})`,
  isnull: (e) => `(${e.negated ? 'notnull' : 'isnull'} ${key(e.arg)})`,
  in: (e) => `(${e.negated ? 'notin' : 'in'} ${key(e.arg)} ${e.list.map(key).join(' ')})`,
  arith: (e) => `(${e.op}:${e.type} ${key(e.left)} ${key(e.right)})`,
  neg: (e) => `(neg:${e.type} ${key(e.arg)})`,
  rescale: (e) => `(rescale ${e.factor}n ${key(e.arg)})`,
  geo: (e) => `(geo:${e.op} ${e.args.map(key).join(' ')} ${JSON.stringify(e.wkt)})`,
};

/** Exact source text of a literal value: `-0`, `12n`, JSON-quoted strings. */
export function literalText(value: LiteralValue): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}
