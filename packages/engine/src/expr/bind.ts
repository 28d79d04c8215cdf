// Replaces `$name` and `?` bind variables by literals taken from the request's `vars`.
import { type Expr, type Handlers, type VarExpr, visit } from './ast.js';
import { syntaxError } from './fail.js';
import { literalOf } from './var-value.js';

/** Bind variables: an object for `$name`, a list for `?` (in order of appearance). */
export type Vars = Record<string, unknown> | unknown[];

/**
 * Returns `expr` with every variable replaced by a literal at the variable's position.
 * Throws QuerySyntax for a missing variable, the wrong kind of `vars`, surplus `?` values or a
 * `$name` in `vars` that the query does not use (a misspelt name would otherwise be ignored);
 * QueryType for a value that has no query type.
 * @example
 * bind(parse('a > ?'), [5], 'a > ?') // a > 5
 */
export function bind(expr: Expr, vars: Vars | undefined, query: string): Expr {
  const used = { params: 0, names: new Set<string>() };
  const bound = visit(binder(vars, query, used), expr);
  checkAllUsed(vars, used, query);
  return bound;
}

/** The bind variables an expression uses: its `$name`s and how many `?` it has. */
export interface VarUse {
  readonly names: ReadonlySet<string>;
  readonly params: number;
}

/**
 * Throws QuerySyntax when `vars` holds a value that `used` does not take: more values than `?`
 * placeholders, or a `$name` the query does not use; `query` is the text the error points at (its
 * end). Empty `vars` (or none) always pass, so a filter-less call may send `{}`.
 * @example
 * checkAllUsed({ d: 1, e: 2 }, { names: new Set(['d']), params: 0 }, 'depth > $d') // throws: $e is not used
 */
export function checkAllUsed(vars: Vars | undefined, used: VarUse, query: string): void {
  if (typeof vars !== 'object' || vars === null) return;
  const end = { pos: query.length, token: '' };
  if (Array.isArray(vars)) {
    if (vars.length > used.params) throw syntaxError(query, end, `got ${vars.length} bind variables for ${used.params} '?' placeholder${used.params === 1 ? '' : 's'}`);
    return;
  }
  // an undefined value is no value, as for a missing variable
  const unused = Object.keys(vars).filter((name) => !used.names.has(name) && vars[name] !== undefined);
  if (unused.length === 0) return;
  const uses = used.names.size === 0 ? 'it uses none' : `it uses ${[...used.names].map((n) => `$${n}`).join(', ')}`;
  const list = unused.map((n) => `$${n}`).join(', ');
  throw syntaxError(query, end, `bind variable${unused.length === 1 ? '' : 's'} ${list} in vars ${unused.length === 1 ? 'is' : 'are'} not used by the query (${uses})`);
}

/** What a call without a filter uses: no variables. */
export const NO_VARS: VarUse = { names: new Set(), params: 0 };

/** The `$name`s and the number of `?` placeholders of `expr`. */
export function varUse(expr: Expr): VarUse {
  const used = { params: 0, names: new Set<string>() };
  const rec = (e: Expr): void => visit(handlers, e);
  const handlers: Handlers<Expr, void> = {
    literal: () => undefined,
    column: () => undefined,
    var: (e) => note(e, used),
    unary: (e) => rec(e.arg),
    binary: (e) => (rec(e.left), rec(e.right)),
    isnull: (e) => rec(e.arg),
    in: (e) => (rec(e.arg), e.list.forEach(rec)),
    spatial: (e) => (rec(e.arg), rec(e.operand)),
    call: (e) => e.args.forEach(rec),
  };
  rec(expr);
  return used;
}

function binder(vars: Vars | undefined, query: string, used: { params: number; names: Set<string> }): Handlers<Expr, Expr> {
  const rec = (e: Expr): Expr => visit(handlers, e);
  const handlers: Handlers<Expr, Expr> = {
    literal: (e) => e,
    column: (e) => e,
    var: (e) => {
      note(e, used);
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

function note(e: VarExpr, used: { params: number; names: Set<string> }): void {
  if (e.name === null) used.params = Math.max(used.params, e.index + 1);
  else used.names.add(e.name);
}
