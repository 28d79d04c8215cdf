// CQL2 JSON → AST: `{op, args}` objects, `{property}`, `{timestamp}`, `{date}`, `{interval}`, `{bbox}`, GeoJSON.
import { StacError } from '../errors.js';
import { SPATIAL_OPS, TEMPORAL_OPS, type CompareOp, type Expr, type Operand, type SpatialOp, type TemporalOp } from './ast.js';
import { MAX_DEPTH } from './text.js';
import { bboxProblem, boundProblem, dateProblem, geometryProblem, timestampProblem } from './literals.js';

/**
 * Parses a CQL2 JSON filter; a malformed node is a 400 naming its JSON path.
 * @example
 * parseCql2Json({ op: '=', args: [{ property: 'collection' }, 'c1'] })
 */
export function parseCql2Json(value: unknown): Expr {
  return expr(value, 'filter', 0);
}

const COMPARE = new Set(['=', '<>', '<', '<=', '>', '>=']);

function expr(v: unknown, path: string, depth: number): Expr {
  if (depth > MAX_DEPTH) fail(path, `nesting deeper than ${MAX_DEPTH}`, undefined);
  if (typeof v === 'boolean') return { kind: 'literal', value: v };
  if (!isObject(v) || typeof v['op'] !== 'string' || !Array.isArray(v['args'])) fail(path, 'expected a boolean or an {"op", "args"} object', v);
  const op = (v['op'] as string).toLowerCase();
  const args = v['args'] as unknown[];
  const at = (i: number) => `${path}.args[${i}]`;
  if (op === 'and' || op === 'or') {
    if (args.length < 2) fail(path, `${op} needs at least 2 args`, v);
    return { kind: op, args: args.map((a, i) => expr(a, at(i), depth + 1)) };
  }
  if (op === 'not') return { kind: 'not', arg: expr(arity(args, 1, path, op)[0], at(0), depth + 1) };
  if (COMPARE.has(op)) {
    const [l, r] = arity(args, 2, path, op);
    return { kind: 'compare', op: op as CompareOp, left: operand(l, at(0)), right: operand(r, at(1)) };
  }
  if (op === 'like') {
    const [a, p] = arity(args, 2, path, op);
    if (typeof p !== 'string') fail(at(1), 'LIKE needs a pattern string', p);
    return { kind: 'like', arg: operand(a, at(0)), pattern: p };
  }
  if (op === 'between') {
    const [a, lo, hi] = arity(args, 3, path, op);
    return { kind: 'between', arg: operand(a, at(0)), low: operand(lo, at(1)), high: operand(hi, at(2)) };
  }
  if (op === 'in') {
    const [a, list] = arity(args, 2, path, op);
    if (!Array.isArray(list) || list.length === 0) fail(at(1), 'IN needs a non-empty array', list);
    return { kind: 'in', arg: operand(a, at(0)), list: list.map((x, i) => operand(x, `${at(1)}[${i}]`)) };
  }
  if (op === 'isnull') return { kind: 'isNull', arg: operand(arity(args, 1, path, op)[0], at(0)) };
  if ((SPATIAL_OPS as readonly string[]).includes(op)) {
    const [l, r] = arity(args, 2, path, op);
    return { kind: 'spatial', op: op as SpatialOp, left: operand(l, at(0)), right: operand(r, at(1)) };
  }
  if ((TEMPORAL_OPS as readonly string[]).includes(op)) {
    const [l, r] = arity(args, 2, path, op);
    return { kind: 'temporal', op: op as TemporalOp, left: operand(l, at(0)), right: operand(r, at(1)) };
  }
  return fail(`${path}.op`, `unknown operator ${JSON.stringify(v['op'])}`, undefined);
}

function operand(v: unknown, path: string): Operand {
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (typeof v === 'number' && Number.isFinite(v)) return { kind: 'number', value: v };
  if (typeof v === 'boolean') return { kind: 'boolean', value: v };
  if (!isObject(v)) return fail(path, 'expected a property, a literal or a geometry', v);
  if (typeof v['property'] === 'string') return { kind: 'property', name: v['property'] };
  if (typeof v['timestamp'] === 'string') return check({ kind: 'timestamp', value: v['timestamp'] }, timestampProblem(v['timestamp']), path);
  if (typeof v['date'] === 'string') return check({ kind: 'date', value: v['date'] }, dateProblem(v['date']), path);
  if (Array.isArray(v['interval'])) {
    const iv = v['interval'].map((b) => (isObject(b) ? (b['timestamp'] ?? b['date']) : b));
    if (iv.length !== 2 || !iv.every((b): b is string => typeof b === 'string')) return fail(path, 'interval needs two bounds', v);
    return check({ kind: 'interval', start: iv[0]!, end: iv[1]! }, boundProblem(iv[0]!) ?? boundProblem(iv[1]!), path);
  }
  if (Array.isArray(v['bbox'])) return check({ kind: 'bbox', value: v['bbox'] as number[] }, bboxProblem(v['bbox']), path);
  if (typeof v['type'] === 'string') return check({ kind: 'geometry', value: v as never }, geometryProblem(v), path);
  return fail(path, 'expected {property}, {timestamp}, {date}, {interval}, {bbox} or a GeoJSON geometry', v);
}

function check(o: Operand, problem: string | undefined, path: string): Operand {
  if (problem) fail(path, problem, undefined);
  return o;
}

function arity(args: unknown[], n: number, path: string, op: string): unknown[] {
  if (args.length !== n) fail(`${path}.args`, `${op} takes ${n} argument${n > 1 ? 's' : ''}, got ${args.length}`, undefined);
  return args;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(path: string, message: string, value: unknown): never {
  const shown = value === undefined ? '' : `, got ${JSON.stringify(value)?.slice(0, 120)}`;
  throw new StacError('InvalidParameter', `${path}: ${message}${shown}`, { parameter: 'filter' });
}
