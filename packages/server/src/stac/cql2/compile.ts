// AST → predicate over index entries, type-checked against the queryables; three-valued (null = unknown).
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';
import { StacError } from '../errors.js';
import { boxGeometry, toJsts, type Box } from '../geometry.js';
import type { CatalogIndex } from '../index/catalog-index.js';
import type { DatasetEntry } from '../index/entry.js';
import { checkOperand, relate } from '../predicates.js';
import { parseRfc3339 } from '../time.js';
import { relationOf, type CompareOp, type Expr, type Operand, type TemporalOp } from './ast.js';
import { QUERYABLE_NAMES, queryable, type QueryableType } from './queryables.js';

/** A compiled filter: true, false, or null (unknown, e.g. a missing property). Only true selects. */
export type Predicate = (entry: DatasetEntry) => boolean | null;

type Value = string | number | boolean | readonly [number, number] | Geometry | readonly string[] | null;
interface Typed {
  readonly type: QueryableType | 'boolean';
  readonly get: (e: DatasetEntry) => Value;
  /** For string literals compared with timestamps. */
  readonly literal?: string;
}

/**
 * Compiles a filter; unknown properties and type mismatches are 400s.
 * @example
 * const keep = compileFilter(parseCql2Text("storage_class = 'tabular'"), index); keep(entry) === true
 */
export function compileFilter(e: Expr, index: CatalogIndex): Predicate {
  switch (e.kind) {
    case 'and': {
      const parts = e.args.map((a) => compileFilter(a, index));
      return (x) => { let r: boolean | null = true; for (const p of parts) { const v = p(x); if (v === false) return false; if (v === null) r = null; } return r; };
    }
    case 'or': {
      const parts = e.args.map((a) => compileFilter(a, index));
      return (x) => { let r: boolean | null = false; for (const p of parts) { const v = p(x); if (v === true) return true; if (v === null) r = null; } return r; };
    }
    case 'not': { const p = compileFilter(e.arg, index); return (x) => { const v = p(x); return v === null ? null : !v; }; }
    case 'literal': return () => e.value;
    case 'isNull': { const a = operand(e.arg, index); return (x) => a.get(x) === null; }
    case 'compare': return compare(e.op, operand(e.left, index), operand(e.right, index));
    case 'between': {
      const [lo, hi] = [compare('>=', operand(e.arg, index), operand(e.low, index)), compare('<=', operand(e.arg, index), operand(e.high, index))];
      return (x) => { const a = lo(x); const b = hi(x); return a === false || b === false ? false : a === null || b === null ? null : true; };
    }
    case 'in': {
      const tests = e.list.map((item) => compare('=', operand(e.arg, index), operand(item, index)));
      return (x) => { let r: boolean | null = false; for (const t of tests) { const v = t(x); if (v === true) return true; if (v === null) r = null; } return r; };
    }
    case 'like': {
      const a = operand(e.arg, index);
      if (a.type !== 'string') throw typeError(`LIKE needs a string, got a ${a.type}`);
      const re = likeRegex(e.pattern);
      return (x) => { const v = a.get(x); return v === null ? null : re.test(v as string); };
    }
    case 'spatial': {
      const [l, r] = [geometric(operand(e.left, index)), geometric(operand(e.right, index))];
      const relation = relationOf(e.op);
      for (const side of [e.left, e.right]) if (side.kind === 'geometry') checkOperand(relation, toJsts(side.value));
      return (x) => { const a = l(x); const b = r(x); return a === null || b === null ? null : relate(relation, a, b); };
    }
    case 'temporal': {
      const [l, r] = [temporal(operand(e.left, index)), temporal(operand(e.right, index))];
      return (x) => { const a = l(x); const b = r(x); return a === null || b === null ? null : allen(e.op, a, b); };
    }
  }
}

function operand(o: Operand, index: CatalogIndex): Typed {
  switch (o.kind) {
    case 'property': {
      const q = queryable(o.name);
      if (!q) throw new StacError('InvalidParameter', `filter: unknown property '${o.name}'; queryables are ${QUERYABLE_NAMES.join(', ')} and facets.<key> (GET /api/stac/queryables)`, { parameter: 'filter' });
      return { type: q.type, get: (e) => q.get(e, index) };
    }
    case 'string': return { type: 'string', get: () => o.value, literal: o.value };
    case 'number': return { type: 'number', get: () => o.value };
    case 'boolean': return { type: 'boolean', get: () => o.value };
    case 'timestamp': { const t = instantOf(o.value); return { type: 'timestamp', get: () => [t, t] as const }; }
    case 'date': { const t = instantOf(`${o.value}T00:00:00Z`); return { type: 'timestamp', get: () => [t, t + 86_399_999] as const }; }
    case 'interval': { const iv = [bound(o.start, false), bound(o.end, true)] as const; return { type: 'timestamp', get: () => iv }; }
    case 'geometry': { const g = toJsts(o.value); return { type: 'geometry', get: () => g }; }
    case 'bbox': {
      const b = o.value.length === 6 ? [o.value[0], o.value[1], o.value[3], o.value[4]] : o.value;
      const g = boxGeometry(b as unknown as Box);
      return { type: 'geometry', get: () => g };
    }
  }
}

function compare(op: CompareOp, l: Typed, r: Typed): Predicate {
  const [a, b] = [coerce(l, r.type), coerce(r, l.type)];
  if (a.type !== b.type || a.type === 'geometry' || a.type === 'strings') {
    throw typeError(`cannot compare a ${l.type} with a ${r.type} (use S_ functions for geometries)`);
  }
  const time = a.type === 'timestamp';
  return (x) => {
    const u = a.get(x);
    const v = b.get(x);
    if (u === null || v === null) return null;
    const c = time ? (u as readonly number[])[0]! - (v as readonly number[])[0]! : u < v ? -1 : u > v ? 1 : 0;
    switch (op) {
      case '=': return c === 0;
      case '<>': return c !== 0;
      case '<': return c < 0;
      case '<=': return c <= 0;
      case '>': return c > 0;
      case '>=': return c >= 0;
    }
  };
}

// a 'string' literal compared with a timestamp property is read as a timestamp
function coerce(t: Typed, other: Typed['type']): Typed {
  if (other !== 'timestamp' || t.type !== 'string' || t.literal === undefined) return t;
  const ms = instantOf(t.literal);
  return { type: 'timestamp', get: () => [ms, ms] as const };
}

function geometric(t: Typed): (e: DatasetEntry) => Geometry | null {
  if (t.type !== 'geometry') throw typeError(`spatial functions take geometries, got a ${t.type}`);
  return t.get as (e: DatasetEntry) => Geometry | null;
}

function temporal(t: Typed): (e: DatasetEntry) => readonly [number, number] | null {
  const c = coerce(t, 'timestamp');
  if (c.type !== 'timestamp') throw typeError(`temporal functions take timestamps, dates or intervals, got a ${t.type}`);
  return c.get as (e: DatasetEntry) => readonly [number, number] | null;
}

// Allen's interval relations as CQL2 defines them (OGC 21-065, temporal functions)
function allen(op: TemporalOp, [a1, a2]: readonly [number, number], [b1, b2]: readonly [number, number]): boolean {
  switch (op) {
    case 't_after': return a1 > b2;
    case 't_before': return a2 < b1;
    case 't_contains': return a1 < b1 && a2 > b2;
    case 't_disjoint': return a2 < b1 || a1 > b2;
    case 't_during': return a1 > b1 && a2 < b2;
    case 't_equals': return a1 === b1 && a2 === b2;
    case 't_finishedby': return a1 < b1 && a2 === b2;
    case 't_finishes': return a1 > b1 && a2 === b2;
    case 't_intersects': return a1 <= b2 && a2 >= b1;
    case 't_meets': return a2 === b1;
    case 't_metby': return a1 === b2;
    case 't_overlappedby': return a1 > b1 && a1 < b2 && a2 > b2;
    case 't_overlaps': return a1 < b1 && a2 > b1 && a2 < b2;
    case 't_startedby': return a1 === b1 && a2 > b2;
    case 't_starts': return a1 === b1 && a2 < b2;
  }
}

function instantOf(text: string): number {
  const t = parseRfc3339(text);
  if (typeof t === 'string') throw new StacError('InvalidParameter', `filter: ${t}`, { parameter: 'filter' });
  return t.ms;
}

function bound(text: string, end: boolean): number {
  if (text === '..') return end ? Infinity : -Infinity;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return instantOf(`${text}T00:00:00Z`) + (end ? 86_399_999 : 0);
  return instantOf(text);
}

// LIKE: % any run, _ one character, \ escapes the next character
function likeRegex(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) re += escape(pattern[++i]!);
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += escape(c);
  }
  return new RegExp(`^${re}$`, 'u');
}

function escape(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function typeError(message: string): StacError {
  return new StacError('InvalidParameter', `filter: ${message}`, { parameter: 'filter' });
}
