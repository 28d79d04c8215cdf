// Type checks a bound Expr against an Arrow schema, producing a folded, cloneable TypedExpr.
//
// Types and semantics (the kernels, the reference evaluator and constant folding all follow these):
// - Numeric types: `int` (int8..uint32, a JS number), `int64` (int64/uint64, a JS bigint), `float`
//   (float32/float64, a number). Integer literals are `int` when safe, else `int64`.
// - Comparisons between any numerics are exact (JS compares bigint with number exactly). NaN
//   compares false with everything, so `x != NaN` is true (IEEE).
// - Arithmetic: int op int -> int (JS number arithmetic); with an int64 operand -> int64 (exact
//   bigint arithmetic); with a float operand -> float (bigints via Number()). `/` is true division
//   and always float (x/0 is ±Infinity or NaN per IEEE). `%` on integers keeps the dividend's sign and
//   is null for a zero divisor; on floats it is IEEE fmod (x % 0 is NaN). Unary minus keeps the type.
// - Strings compare by UTF-8 bytes (= code point order); strings and binary only support comparisons
//   and `in`. Booleans compare with booleans (false < true).
// - Temporal columns (timestamp[s|ms|us|ns], date32 days, date64 ms) compare with each other (the
//   coarser side is rescaled), with datetime bind variables and with ISO 8601 string literals, which
//   are converted exactly to the column's unit (see temporal.ts `toUnit`); an invalid ISO string is a
//   QueryType error. Temporal values do not take part in arithmetic. `time` values compare only with
//   `time` values.
// - Null: SQL three-valued (Kleene) logic. Comparisons and arithmetic with null give null; `and`,
//   `or`, `not` are Kleene; `x in (list)` is the Kleene OR of `x == e`. A row is selected only where
//   the filter is TRUE. The filter must be boolean (or the null literal).
// - Constant subtrees are folded (`1 == 1` -> true, `"fetch" == "schema"` -> false).
import type { Schema } from 'apache-arrow';
import { type Expr, type Handlers, isArithOp, isCompareOp, visit } from './ast.js';
import { syntaxError, typeError } from './fail.js';
import * as fold from './fold.js';
import type { TypedExpr } from './typed.js';
import { columnOf, isNumeric, type NumericType } from './types.js';
import { describeOperand, unify } from './unify.js';
import { lowerSpatial } from '../geo/lower.js';

/**
 * Type checks `expr` (after `bind`) against `schema`. Throws QueryType with the position and token of
 * the offending node (and the column, when one is involved).
 * @example
 * typecheck(parse('depth > 100'), schema, 'depth > 100') // { kind: 'compare', op: '>', ... }
 */
export function typecheck(expr: Expr, schema: Schema, query: string): TypedExpr {
  const typed = visit(checker(schema, query), expr);
  if (typed.type !== 'bool' && typed.type !== 'null') {
    throw typeError(query, expr, `the filter must be a boolean expression, got ${describeOperand(typed)} at ${expr.pos}`);
  }
  return typed;
}

/**
 * Type checks `expr` (after `bind`) as a value of any type (a group key), not only a filter.
 * @example
 * typecheckValue(parse('depth > 100'), schema, 'depth > 100').type // 'bool'
 */
export function typecheckValue(expr: Expr, schema: Schema, query: string): TypedExpr {
  return visit(checker(schema, query), expr);
}

function checker(schema: Schema, query: string): Handlers<Expr, TypedExpr> {
  const check = (e: Expr): TypedExpr => visit(handlers, e);
  const boolean = (e: Expr, what: string): TypedExpr => {
    const t = check(e);
    if (t.type === 'bool' || t.type === 'null') return t;
    throw typeError(query, e, `${what} needs a boolean operand, got ${describeOperand(t)} at ${e.pos}`, columnName(t));
  };
  const numeric = (e: Expr, what: string): TypedExpr => {
    const t = check(e);
    if (isNumeric(t.type) || t.type === 'null') return t;
    throw typeError(query, e, `${what} needs numbers, got ${describeOperand(t)} at ${e.pos}`, columnName(t));
  };
  const handlers: Handlers<Expr, TypedExpr> = {
    literal: (e) => {
      if (e.type === 'int') return Number.isSafeInteger(Number(e.value)) ? fold.literal('int', Number(e.value)) : fold.literal('int64', e.value);
      return fold.literal(e.type, e.value);
    },
    column: (e) => {
      const field = schema.fields.find((f) => f.name === e.name);
      if (field === undefined) throw typeError(query, e, `unknown column '${e.name}' at ${e.pos}${suggest(schema, e.name)}`, e.name);
      const column = columnOf(e.name, field.type);
      if (typeof column === 'string') throw typeError(query, e, `${column} (column '${e.name}' at ${e.pos})`, e.name);
      return column;
    },
    var: (e) => {
      throw syntaxError(query, e, `missing bind variable ${e.token === '?' ? `? #${e.index + 1}` : e.token} at ${e.pos}`);
    },
    unary: (e) => (e.op === 'not' ? fold.not(boolean(e.arg, "'not'")) : neg(numeric(e.arg, 'unary minus'))),
    binary: (e) => {
      if (e.op === 'and' || e.op === 'or') return fold.logical(e.op, boolean(e.left, `'${e.op}'`), boolean(e.right, `'${e.op}'`));
      if (isCompareOp(e.op)) {
        const [left, right] = unify({ typed: check(e.left), source: e.left }, { typed: check(e.right), source: e.right }, e, query);
        return fold.compare(e.op, left, right);
      }
      if (!isArithOp(e.op)) throw new Error(`unhandled operator ${e.op}`);
      const [left, right] = [numeric(e.left, `'${e.op}'`), numeric(e.right, `'${e.op}'`)];
      return fold.arith(e.op, left, right, arithType(e.op, left, right));
    },
    isnull: (e) => fold.isNull(check(e.arg), e.negated),
    in: (e) => {
      const arg = check(e.arg);
      const pairs = e.list.map((item) => unify({ typed: arg, source: e.arg }, { typed: check(item), source: item }, e, query));
      if (pairs.every(([a]) => a === arg)) return fold.inList(arg, pairs.map(([, b]) => b), e.negated);
      // the argument needs a different conversion per element: spell out the equalities
      const any = pairs.map(([a, b]) => fold.compare('==', a, b)).reduce((acc, eq) => fold.logical('or', acc, eq));
      return e.negated ? fold.not(any) : any;
    },
    spatial: (e) => lowerSpatial(e, schema, check(e.operand), query),
    call: (e) => {
      throw typeError(query, e, `unknown function '${e.name}' at ${e.pos}`);
    },
  };
  return handlers;
}

function neg(arg: TypedExpr): TypedExpr {
  return arg.type === 'null' ? arg : fold.neg(arg, arg.type as NumericType);
}

function arithType(op: string, left: TypedExpr, right: TypedExpr): NumericType {
  const types = [left.type, right.type];
  if (op === '/' || types.includes('float')) return 'float';
  return types.includes('int64') ? 'int64' : 'int';
}

const columnName = (e: TypedExpr): string | undefined => (e.kind === 'column' ? e.name : undefined);

// "; did you mean 'Depth'?" when the name differs only in case
function suggest(schema: Schema, name: string): string {
  const match = schema.fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
  return match ? `; did you mean '${match.name}'?` : '';
}
