// Replaces `$name` and `?` bind variables by literals taken from the request's `vars`.
import { type Expr, type Handlers, type VarExpr, visit } from './ast.js';
import { syntaxError } from './fail.js';
import { literalOf } from './var-value.js';

/** Bind variables: an object for `$name`, a list for `?` (in order of appearance). */
export type Vars = Record<string, unknown> | unknown[];

/**
 * Returns `expr` with every variable replaced by a literal at the variable's position.
 * Throws QuerySyntax for a missing variable, the wrong kind of `vars`, or surplus `?` values;
 * QueryType for a value that has no query type.
 * @example
 * bind(parse('a > ?'), [5], 'a > ?') // a > 5
 */
export function bind(expr: Expr, vars: Vars | undefined, query: string): Expr {
  const used = { params: 0 };
  const bound = visit(binder(vars, query, used), expr);
  if (Array.isArray(vars) && vars.length > used.params) {
    const where = { pos: query.length, token: '' };
    throw syntaxError(query, where, `got ${vars.length} bind variables for ${used.params} '?' placeholder${used.params === 1 ? '' : 's'}`);
  }
  return bound;
}

function binder(vars: Vars | undefined, query: string, used: { params: number }): Handlers<Expr, Expr> {
  const rec = (e: Expr): Expr => visit(handlers, e);
  const handlers: Handlers<Expr, Expr> = {
    literal: (e) => e,
    column: (e) => e,
    var: (e) => {
      if (e.name === null) used.params = Math.max(used.params, e.index + 1);
      return { ...literalOf(lookup(e, vars, query), e, query), kind: 'literal', pos: e.pos, token: e.token };
    },
    unary: (e) => ({ ...e, arg: rec(e.arg) }),
    binary: (e) => ({ ...e, left: rec(e.left), right: rec(e.right) }),
    isnull: (e) => ({ ...e, arg: rec(e.arg) }),
    in: (e) => ({ ...e, arg: rec(e.arg), list: e.list.map(rec) }),
    spatial: (e) => ({ ...e, arg: rec(e.arg), operand: rec(e.operand) }),
    call: (e) => ({ ...e, args: e.args.map(rec) }),
  };
  return handlers;
}

function lookup(e: VarExpr, vars: Vars | undefined, query: string): unknown {
  const label = e.name === null ? `? #${e.index + 1}` : `$${e.name}`;
  const where = { pos: e.pos, token: e.token };
  if (e.name === null) {
    if (vars !== undefined && !Array.isArray(vars)) throw syntaxError(query, where, `bind variable ${label} at ${e.pos} needs vars as a list`);
    const value = vars?.[e.index];
    if (value === undefined) throw syntaxError(query, where, `missing bind variable ${label} at ${e.pos}`);
    return value;
  }
  if (Array.isArray(vars)) throw syntaxError(query, where, `bind variable ${label} at ${e.pos} needs vars as an object`);
  const value = vars !== undefined && Object.hasOwn(vars, e.name) ? vars[e.name] : undefined;
  if (value === undefined) throw syntaxError(query, where, `missing bind variable ${label} at ${e.pos}`);
  return value;
}
