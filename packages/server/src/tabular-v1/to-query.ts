// OQS on rows → the engine's query language with bind variables, when every operator has a counterpart.
import type { OqsNode, Operand } from '../oqs/index.js';

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
 * the row-by-row evaluation, so `#NEGATE` selects the same rows either way.
 * @example
 * toEngineFilter(parseOqs({ '#GREATER_THAN': ['$depth', 100] })) // { query: '`depth` is not null and `depth` > $v0', vars: { v0: 100 } }
 */
export function toEngineFilter(n: OqsNode): EngineFilter | undefined {
  const vars: Record<string, unknown> = {};
  const q = emit(n, vars);
  return q === undefined ? undefined : { query: q, vars };
}

function emit(n: OqsNode, vars: Record<string, unknown>): string | undefined {
  switch (n.kind) {
    case 'all':
      return '';
    case 'and':
    case 'or': {
      const parts = n.items.map((i) => emit(i, vars));
      if (parts.some((p) => p === undefined)) return undefined;
      const nonEmpty = parts.filter((p) => p !== '');
      if (nonEmpty.length === 0) return '';
      return nonEmpty.map((p) => `(${p})`).join(` ${n.kind} `);
    }
    case 'not': {
      const inner = emit(n.item, vars);
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
      const r = right.kind === 'path' ? column(right) : bind(right.value, vars);
      if (r === undefined) return undefined;
      const nulls = right.kind === 'path' ? `${l} is not null and ${r} is not null` : `${l} is not null`;
      return `${nulls} and ${l} ${OPS[op]} ${r}`;
    }
    case 'in': {
      const c = column(n.value);
      if (c === undefined || n.list.kind !== 'literal' || !Array.isArray(n.list.value) || n.list.value.length === 0) return undefined;
      const items = n.list.value.map((v) => bind(v, vars));
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

function bind(v: unknown, vars: Record<string, unknown>): string | undefined {
  if (typeof v !== 'number' && typeof v !== 'string' && typeof v !== 'boolean') return undefined;
  if (typeof v === 'number' && !Number.isFinite(v)) return undefined;
  const name = `v${Object.keys(vars).length}`;
  vars[name] = v;
  return `$${name}`;
}
