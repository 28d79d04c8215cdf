// OQS on rows → the engine's query language with bind variables, when every operator has a counterpart.
import type { Schema } from 'apache-arrow';
import type { OqsNode, Operand } from '../oqs/index.js';
import { int64FilterValue, isInt64 } from './validate-rows.js';

/** An engine filter: query text and its `$vN` bind variables. */
export interface EngineFilter {
  readonly query: string;
  readonly vars: Record<string, unknown>;
}

const OPS = { eq: '==', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const FLIP = { eq: 'eq', gt: 'lt', gte: 'lte', lt: 'gt', lte: 'gte' } as const;

/**
 * The engine filter for an OQS filter over columns (`$depth`), or undefined when some part
 * (geometry operators, nested paths, match-by-example) must be evaluated row by row instead.
 * `{kind: 'all'}` gives the empty query. A comparison with a null column is false (not unknown), as in
 * the row-by-row evaluation, so `#NEGATE` selects the same rows either way. With the table's
 * `schema`, a value compared with an int64/uint64 column may be a decimal string (as `list` writes
 * values beyond 2^53) or a bigint (the v1 scope reads integers beyond 2^53 so) and is bound exactly as
 * a bigint; an unsafe double there is a 400. A bigint compared with any other column is bound as its
 * nearest double, as JSON.parse would have read it.
 * @example
 * toEngineFilter(parseOqs({ '#GREATER_THAN': ['$depth', 100] })) // { query: '`depth` is not null and `depth` > $v0', vars: { v0: 100 } }
 */
export function toEngineFilter(n: OqsNode, schema?: Schema): EngineFilter | undefined {
  const vars: Record<string, unknown> = {};
  const wide = new Set(schema?.fields.filter(isInt64).map((f) => f.name));
  const q = emit(n, { vars, wide });
  return q === undefined ? undefined : { query: q, vars };
}

/** What emitting collects: the bind variables, and the int64/uint64 columns (whose values may be decimal strings). */
interface Emit {
  readonly vars: Record<string, unknown>;
  readonly wide: ReadonlySet<string>;
}

function emit(n: OqsNode, e: Emit): string | undefined {
  switch (n.kind) {
    case 'all':
      return '';
    case 'and':
    case 'or': {
      const parts = n.items.map((i) => emit(i, e));
      if (parts.some((p) => p === undefined)) return undefined;
      const nonEmpty = parts.filter((p) => p !== '');
      if (nonEmpty.length === 0) return '';
      return nonEmpty.map((p) => `(${p})`).join(` ${n.kind} `);
    }
    case 'not': {
      const inner = emit(n.item, e);
      return inner === undefined ? undefined : inner === '' ? '1 == 0' : `not (${inner})`;
    }
    case 'compare': {
      let { left, right } = n;
      let op: keyof typeof OPS = n.op;
      if (left.kind === 'literal' && right.kind === 'path') {
        [left, right] = [right, left];
        op = FLIP[op];
      }
      const l = column(left);
      if (l === undefined) return undefined;
      if (right.kind === 'literal' && right.value === null) return op === 'eq' ? `${l} is null` : undefined;
      const r = right.kind === 'path' ? column(right) : bind(right.value, e, left);
      if (r === undefined) return undefined;
      const nulls = right.kind === 'path' ? `${l} is not null and ${r} is not null` : `${l} is not null`;
      return `${nulls} and ${l} ${OPS[op]} ${r}`;
    }
    case 'in': {
      const c = column(n.value);
      if (c === undefined || n.list.kind !== 'literal' || !Array.isArray(n.list.value) || n.list.value.length === 0) return undefined;
      const value = n.value;
      const items = n.list.value.map((v) => bind(v, e, value));
      return items.some((i) => i === undefined) ? undefined : `${c} is not null and ${c} in (${items.join(', ')})`;
    }
    case 'null':
    case 'nonNull': {
      const c = column(n.value);
      return c === undefined ? undefined : `${c} is ${n.kind === 'null' ? '' : 'not '}null`;
    }
    case 'spatial':
    case 'match':
      return undefined;
  }
}

function column(op: Operand): string | undefined {
  if (op.kind !== 'path' || op.path.length !== 1) return undefined;
  const name = op.path[0]!;
  return name.includes('`') ? undefined : `\`${name}\``;
}

// `v` as a bind variable for a comparison with column `against`: exactly, as a bigint, for a decimal
// string or a bigint against an int64/uint64 column; a bigint against another as its nearest double
function bind(v: unknown, e: Emit, against: Operand): string | undefined {
  const wide = against.kind === 'path' && against.path.length === 1 && e.wide.has(against.path[0]!);
  if (typeof v === 'bigint' && !wide) v = Number(v);
  if (typeof v !== 'number' && typeof v !== 'string' && typeof v !== 'boolean' && typeof v !== 'bigint') return undefined;
  if (typeof v === 'number' && !Number.isFinite(v)) return undefined;
  const value = wide ? int64FilterValue(v, against.path[0]!) : v;
  const name = `v${Object.keys(e.vars).length}`;
  e.vars[name] = value;
  return `$${name}`;
}
