// Row-at-a-time reference evaluator: the executable definition of filter semantics, used by tests.
import { type Handlers, visit } from './ast.js';
import { and3, arithmetic, compareScalars, negate, not3, or3, type Scalar } from './scalar.js';
import type { TypedColumn, TypedExpr } from './typed.js';
import { representation } from './types.js';
import { geoTest } from '../geo/predicate.js';
import { readGeometry } from '../geo/parse.js';

type Value = Scalar | null;

/**
 * Evaluates a typed filter on one row. `row(name)` returns the column's value in its storage domain:
 * number (ints, floats, date32 days), bigint (int64, uint64, timestamps, date64), boolean, string,
 * Uint8Array (binary) or null; numbers and bigints are converted when the column needs the other.
 * @example
 * evaluateRow(prepareFilter('depth > 5', schema).typed, (c) => ({ depth: 7 })[c]) // true
 */
export function evaluateRow(typed: TypedExpr, row: (column: string) => unknown): boolean | null {
  return visit(evaluator(row), typed) as boolean | null;
}

function evaluator(row: (column: string) => unknown): Handlers<TypedExpr, Value> {
  const ev = (e: TypedExpr): Value => visit(handlers, e);
  const num = (e: TypedExpr): number | bigint | null => ev(e) as number | bigint | null;
  const bool = (e: TypedExpr): boolean | null => ev(e) as boolean | null;
  const handlers: Handlers<TypedExpr, Value> = {
    literal: (e) => e.value,
    column: (e) => columnValue(e, row(e.name)),
    compare: (e) => {
      const [a, b] = [ev(e.left), ev(e.right)];
      return a === null || b === null ? null : compareScalars(e.op, a, b);
    },
    logical: (e) => (e.op === 'and' ? and3 : or3)(bool(e.left), bool(e.right)),
    not: (e) => not3(bool(e.arg)),
    isnull: (e) => (ev(e.arg) === null) !== e.negated,
    in: (e) => {
      const a = ev(e.arg);
      if (a === null) return null;
      const found = e.list.reduce<boolean | null>((acc, item) => {
        const b = ev(item);
        return or3(acc, b === null ? null : compareScalars('==', a, b));
      }, false);
      return e.negated ? not3(found) : found;
    },
    arith: (e) => {
      const [a, b] = [num(e.left), num(e.right)];
      return a === null || b === null ? null : arithmetic(e.op, a, b, e.type);
    },
    neg: (e) => {
      const a = num(e.arg);
      return a === null ? null : negate(a, e.type);
    },
    rescale: (e) => {
      const a = num(e.arg);
      return a === null ? null : BigInt(a) * e.factor;
    },
    geo: (e) => {
      // a point pair, or a geometry (its box columns, args 1..4, are not needed here)
      const values = e.args.slice(0, e.args.length === 2 ? 2 : 1).map((a) => row(a.name));
      if (values.some((v) => v === null || v === undefined)) return null;
      const test = geoTest(e.op, e.wkt);
      if (values.length === 2) return test.point(Number(values[0]), Number(values[1]));
      return test.geometry(readGeometry(values[0] as string | Uint8Array));
    },
  };
  return handlers;
}

function columnValue(column: TypedColumn, value: unknown): Value {
  if (value === null || value === undefined) return null;
  const rep = representation(column.type);
  if (rep === 'bigint' && typeof value === 'number') return BigInt(value);
  if (rep === 'number' && typeof value === 'bigint') return Number(value);
  return value as Scalar;
}
