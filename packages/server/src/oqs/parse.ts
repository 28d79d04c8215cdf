// OQS JSON → OqsNode, strictly: an error names the place in the filter (e.g. `#AND[1].#ST_INTERSECTS[1]`).
import { ApiError } from '../errors.js';
import { jsonText, roundedJson } from '../exact-json.js';
import { geometryProblem } from '../geometry/geojson.js';
import { fromGeoJson } from '../geometry/jsts.js';
import { validityProblem } from '../geometry/validity.js';
import type { CompareOp, GeometryOperand, OqsNode, Operand, SpatialOp } from './ast.js';

/** Largest nesting of operators accepted (a guard against stack exhaustion). */
export const MAX_DEPTH = 64;

/** A malformed OQS filter: 400 with `where` in the description. */
export class OqsError extends ApiError {
  constructor(readonly where: string, message: string) {
    super(400, 'InvalidQuery', `invalid OQS filter at ${where || 'the top level'}: ${message}`);
  }
}

const compareOps: Record<string, CompareOp> = {
  '#EQUALS': 'eq',
  '#GREATER_THAN': 'gt',
  '#GREATER_THAN_OR_EQUALS': 'gte',
  '#LESS_THAN': 'lt',
  '#LESS_THAN_OR_EQUALS': 'lte',
};
const spatialOps: Record<string, SpatialOp> = {
  '#ST_INTERSECTS': 'intersects',
  '#ST_WITHIN': 'within',
  '#ST_CONTAINS': 'contains',
  '#ST_EQUALS': 'equals',
};
const OPERATORS = ['#AND', '#OR', '#NEGATE', '#WITHIN', '#NULL', '#NON_NULL', ...Object.keys(compareOps), ...Object.keys(spatialOps)];

/**
 * Parses an OQS filter; `undefined`, `null` and `{}` mean "everything".
 * @example
 * parseOqs({ '#AND': [{ '#EQUALS': ['$kind', 'catalog.example.io/dataset'] }, { '#ST_INTERSECTS': ['$spec.details.value.geometry', poly] }] })
 */
export function parseOqs(filter: unknown): OqsNode {
  if (filter === undefined || filter === null) return { kind: 'all' };
  return node(filter, '', 0);
}

function node(v: unknown, where: string, depth: number): OqsNode {
  if (depth > MAX_DEPTH) throw new OqsError(where, `nested deeper than ${MAX_DEPTH} operators`);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new OqsError(where, `expected an object such as {"#EQUALS": ["$kind", "…"]}, got ${show(v)}`);
  const keys = Object.keys(v);
  if (keys.length === 0) return { kind: 'all' };
  const ops = keys.filter((k) => k.startsWith('#'));
  if (ops.length === 0) return { kind: 'match', example: v as Record<string, unknown> };
  if (keys.length !== 1) throw new OqsError(where, `an operator object has exactly one key, got ${keys.map((k) => JSON.stringify(k)).join(', ')}`);
  const op = ops[0]!;
  const at = where ? `${where}.${op}` : op;
  const arg = (v as Record<string, unknown>)[op];
  if (op === '#AND' || op === '#OR') {
    const items = array(arg, at, 1).map((x, i) => node(x, `${at}[${i}]`, depth + 1));
    return op === '#AND' ? { kind: 'and', items } : { kind: 'or', items };
  }
  if (op === '#NEGATE') {
    const inner = Array.isArray(arg) ? exactly(arg, at, 1)[0] : arg;
    return { kind: 'not', item: node(inner, Array.isArray(arg) ? `${at}[0]` : at, depth + 1) };
  }
  if (op === '#NULL' || op === '#NON_NULL') {
    const x = Array.isArray(arg) ? exactly(arg, at, 1)[0] : arg;
    const value = pathOperand(x, Array.isArray(arg) ? `${at}[0]` : at);
    return op === '#NULL' ? { kind: 'null', value } : { kind: 'nonNull', value };
  }
  const cmp = compareOps[op];
  if (cmp) {
    const [a, b] = exactly(arg, at, 2);
    return { kind: 'compare', op: cmp, left: operand(a, `${at}[0]`), right: operand(b, `${at}[1]`) };
  }
  if (op === '#WITHIN') {
    const [a, b] = exactly(arg, at, 2);
    const list = operand(b, `${at}[1]`);
    if (list.kind === 'literal' && !Array.isArray(list.value)) throw new OqsError(`${at}[1]`, `#WITHIN tests a value against a list: expected an array or a "$path", got ${show(b)}`);
    return { kind: 'in', value: operand(a, `${at}[0]`), list };
  }
  const sp = spatialOps[op];
  if (sp) {
    const [a, b] = exactly(arg, at, 2);
    const left = geometryOperand(a, `${at}[0]`, op);
    const right = geometryOperand(b, `${at}[1]`, op);
    if (left.kind !== 'path' && right.kind !== 'path') throw new OqsError(at, 'one operand must be a field path such as "$spec.details.value.geometry"');
    return { kind: 'spatial', op: sp, left, right };
  }
  throw new OqsError(where, `unknown operator ${JSON.stringify(op)}; known: ${OPERATORS.join(', ')}`);
}

function array(v: unknown, at: string, min: number): unknown[] {
  if (!Array.isArray(v) || v.length < min) throw new OqsError(at, `expected an array of at least ${min} operand(s), got ${show(v)}`);
  return v;
}

function exactly(v: unknown, at: string, n: number): unknown[] {
  if (!Array.isArray(v) || v.length !== n) throw new OqsError(at, `expected an array of exactly ${n} operand(s), got ${show(v)}`);
  return v;
}

function operand(v: unknown, at: string): Operand {
  if (typeof v === 'string' && v.startsWith('$')) return pathOperand(v, at);
  return { kind: 'literal', value: v };
}

function pathOperand(v: unknown, at: string): Operand & { kind: 'path' } {
  if (typeof v !== 'string' || !v.startsWith('$')) throw new OqsError(at, `expected a field path such as "$metadata.name", got ${show(v)}`);
  const path = v.slice(1).split('.');
  if (path.some((s) => s === '')) throw new OqsError(at, `field path ${JSON.stringify(v)} has an empty segment`);
  return { kind: 'path', path, text: v };
}

// a literal must be valid too: jsts cannot compare a self-intersecting ring (TopologyException);
// coordinates are doubles, an integer read exactly (a bigint) too
function geometryOperand(given: unknown, at: string, op: string): GeometryOperand {
  if (typeof given === 'string') return pathOperand(given, at);
  const v = roundedJson(given);
  const problem = geometryProblem(v);
  if (problem) throw new OqsError(at, `expected a field path or a GeoJSON geometry: ${problem}`);
  const geometry = fromGeoJson(v as object);
  const invalidity = validityProblem(geometry);
  if (invalidity) throw new OqsError(at, `the ${op} geometry ${invalidity}`);
  return { kind: 'geometry', geometry };
}

function show(v: unknown): string {
  const s = jsonText(v);
  return s === undefined ? String(v) : s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
