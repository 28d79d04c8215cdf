// Makes the two sides of a comparison comparable: checks type classes, resolves temporal literals.
import type { Expr } from './ast.js';
import { type Where, typeError } from './fail.js';
import { literal } from './fold.js';
import { finerOrEqual, parseDatetime, rescaleFactor, toUnit } from './temporal.js';
import type { TemporalType, TypedExpr } from './typed.js';
import { describeType, isNumeric, isTemporal } from './types.js';

/** A typed operand with the source node it came from (for error positions). */
export interface Operand {
  readonly typed: TypedExpr;
  readonly source: Expr;
}

/**
 * Returns both operands in a form the comparison can use directly, or throws QueryType.
 * Temporal values meet in the finer unit: a datetime literal or ISO string takes the column's
 * unit (see `toUnit`), a coarser column is rescaled.
 */
export function unify(left: Operand, right: Operand, op: Where, query: string): [TypedExpr, TypedExpr] {
  const [l, r] = [left.typed.type, right.typed.type];
  if (l === 'null' || r === 'null' || l === r) return [left.typed, right.typed];
  if (isNumeric(l) && isNumeric(r)) return [left.typed, right.typed];
  if ((l === 'string' || l === 'binary') && (r === 'string' || r === 'binary')) return [left.typed, right.typed];
  if (isInstant(left.typed) && isInstant(right.typed)) return temporal(left, right, query);
  throw mismatch(left, right, op, query);
}

// temporal columns and expressions, datetime literals, and string literals (read as ISO 8601)
const isInstant = (e: TypedExpr): boolean => isTemporal(e.type) || e.type === 'datetime' || (e.kind === 'literal' && e.type === 'string');

function temporal(left: Operand, right: Operand, query: string): [TypedExpr, TypedExpr] {
  const [a, b] = [instant(left, query), instant(right, query)];
  const [l, r] = [a.type, b.type];
  if (!isTemporal(l) || !isTemporal(r)) {
    if (isTemporal(l)) return [a, resolve(b, l, right, query)];
    if (isTemporal(r)) return [resolve(a, r, left, query), b];
    return [a, b];
  }
  if (finerOrEqual(l, r) && finerOrEqual(r, l)) return [a, b];
  return finerOrEqual(l, r) ? [a, rescale(b, r, l)] : [rescale(a, l, r), b];
}

// an ISO string literal read as a datetime literal; other operands unchanged
function instant(operand: Operand, query: string): TypedExpr {
  const e = operand.typed;
  if (e.kind !== 'literal' || e.type !== 'string') return e;
  const ns = parseDatetime(e.value as string);
  if (ns === null) {
    const { pos, token } = operand.source;
    throw typeError(query, { pos, token }, `invalid datetime ${JSON.stringify(e.value)} at ${pos}: expected an ISO 8601 date or date-time`);
  }
  return literal('datetime', ns);
}

// a datetime literal in the unit of a temporal column type
function resolve(e: TypedExpr, type: TemporalType, operand: Operand, query: string): TypedExpr {
  if (e.kind !== 'literal') throw new Error('internal: only datetime literals are resolved');
  try {
    return literal(type, toUnit(e.value as bigint, type));
  } catch {
    const { pos, token } = operand.source;
    throw typeError(query, { pos, token }, `datetime at ${pos} is out of range for ${type}`);
  }
}

function rescale(e: TypedExpr, from: TemporalType, to: TemporalType): TypedExpr {
  return { kind: 'rescale', arg: e, factor: rescaleFactor(from, to), type: to };
}

function mismatch(left: Operand, right: Operand, op: Where, query: string): Error {
  const column = [left.typed, right.typed].find((e) => e.kind === 'column');
  const name = column?.kind === 'column' ? column.name : undefined;
  const message = `cannot compare ${describeOperand(left.typed)} with ${describeOperand(right.typed)} at ${op.pos}`;
  return typeError(query, op, message, name);
}

/** "string column 'name'", "a number", "an integer expression", ... */
export function describeOperand(e: TypedExpr): string {
  if (e.kind === 'column') return `${describeType(e.type)} column '${e.name}'`;
  if (e.kind === 'literal') {
    if (isNumeric(e.type)) return 'a number';
    const name = describeType(e.type);
    return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
  }
  const name = describeType(e.type);
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name} expression`;
}
