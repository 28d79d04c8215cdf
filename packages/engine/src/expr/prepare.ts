// prepareFilter: parse, bind and type check a filter once, on the planning thread.
import type { Schema } from 'apache-arrow';
import { bind, type Vars } from './bind.js';
import { canonicalKey } from './key.js';
import { parse } from './parser.js';
import { typecheck } from './typecheck.js';
import { referencedColumns, type TypedExpr } from './typed.js';

/** A checked filter, ready to ship to workers (plain data). */
export interface PreparedFilter {
  readonly typed: TypedExpr;
  /** Referenced columns, in kernel order (`compileFilter(typed).columns`). */
  readonly columns: readonly string[];
  /** Canonical text of `typed`: the kernel cache key. */
  readonly key: string;
  /** Set when the filter folds to a constant: true (all rows), false or null (no rows). */
  readonly constant?: boolean | null;
}

/**
 * Parses, binds and type checks `query` against `schema`.
 * @example
 * prepareFilter('depth > $d', schema, { d: 100 }) // { typed, columns: ['depth'], key: '(> ...)' }
 */
export function prepareFilter(query: string, schema: Schema, vars?: Vars): PreparedFilter {
  const typed = typecheck(bind(parse(query), vars, query), schema, query);
  const prepared = { typed, columns: referencedColumns(typed), key: canonicalKey(typed) };
  return typed.kind === 'literal' ? { ...prepared, constant: typed.value as boolean | null } : prepared;
}
