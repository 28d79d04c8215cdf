// Plans an aggregate: the group key (any expression, bucket, h3), the aggregated fields, the filter.
import type { Schema } from 'apache-arrow';
import { HaloclineError } from '../errors.js';
import type { CallExpr, Expr } from '../expr/ast.js';
import { bind, parse, type TypedColumn, type TypedExpr, typecheckValue, type Vars } from '../expr/index.js';
import { NO_VARS, checkAllUsed, varUse } from '../expr/bind.js';
import { syntaxError, typeError } from '../expr/fail.js';
import { isNumeric } from '../expr/types.js';
import { firstSpatial, isWkb } from '../geo/columns.js';
import { referencedColumns } from '../expr/typed.js';
import { resolutionProblem } from '../geo/h3.js';
import { fieldInfo, type Aggr } from '../schema/metadata.js';
import { AGGREGATE_OPTIONS, checkOptions } from '../read/plan.js';

/** How rows map to groups; plain data, sent to scan workers. */
export type GroupKey =
  /** Any value expression (a bare column, a comparison, arithmetic, a constant). */
  | { readonly kind: 'expr'; readonly typed: TypedExpr }
  /** `bucket(arg, b1..bn)`: a row joins every bucket whose bound is >= its value (list-valued). */
  | { readonly kind: 'bucket'; readonly arg: TypedExpr; readonly bounds: readonly number[] }
  /** `h3(lat, lon, res)`: the cell of the point (one per row). */
  | { readonly kind: 'h3point'; readonly lat: TypedColumn; readonly lon: TypedColumn; readonly res: number }
  /** `h3(geometry, res)`: the cells of the geometry (list-valued for polygons). */
  | { readonly kind: 'h3geom'; readonly column: TypedColumn; readonly wkb: boolean; readonly res: number };

/** One aggregated column. */
export interface AggField {
  readonly name: string;
  readonly fn: Aggr;
  readonly column: TypedColumn;
}

/** What a scan task needs to compute partial aggregates of one partition (plain data). */
export interface AggregateTask {
  readonly key: GroupKey;
  readonly fields: readonly AggField[];
}

/** Options of `table.aggregate`. */
export interface AggregateOptions {
  /** A filter applied before grouping, same syntax as select. */
  readonly query?: string;
  /** Column → `avg` (or `mean`), `sum`, `min`, `max`, `count`. Without it, columns' `aggr` metadata. */
  readonly aggr?: Readonly<Record<string, string>>;
  readonly vars?: Vars;
}

/**
 * The group key and fields of `table.aggregate(groupBy, options)`; throws QuerySyntax/QueryType
 * pointing at the token, InvalidArgument for a bad `aggr`.
 * @example
 * aggregateTask(schema, 'h3(lat, lon, 5)', {}, 'ctd') // { key: { kind: 'h3point', ... }, fields: [...] }
 */
export function aggregateTask(schema: Schema, groupBy: string, options: AggregateOptions, table: string): AggregateTask {
  checkOptions(options, AGGREGATE_OPTIONS, table);
  if (typeof groupBy !== 'string' || groupBy.trim() === '') {
    throw new HaloclineError('InvalidArgument', 'aggregate needs a group-by expression (a column, a comparison, bucket(...) or h3(...))', { table });
  }
  const expr = bind(parse(groupBy), aggregateVars(groupBy, options).groupBy, groupBy);
  return { key: groupKey(expr, schema, groupBy), fields: aggregatedFields(schema, options.aggr, table) };
}

/**
 * The share of `options.vars` of the group-by expression and of the filter (`options.query`):
 * named variables are one namespace for both, each getting the names it uses; `?` placeholders count
 * the group-by's first, then the query's (the order of `aggregate(groupBy, { query })`). Throws
 * QuerySyntax when a variable is used by neither (see `checkAllUsed`).
 * @example
 * aggregateVars('bucket(depth, ?)', { query: 'temp > ?', vars: [100, 4] }) // { groupBy: [100], query: [4] }
 */
export function aggregateVars(groupBy: string, options: AggregateOptions): { groupBy?: Vars; query?: Vars } {
  const { vars, query } = options;
  if (typeof vars !== 'object' || vars === null) return { groupBy: vars, query: vars };
  const byUse = varUse(parse(groupBy));
  const queryUse = typeof query === 'string' && query.trim() !== '' ? varUse(parse(query)) : NO_VARS;
  const text = queryUse === NO_VARS ? groupBy : query!;
  checkAllUsed(vars, { names: new Set([...byUse.names, ...queryUse.names]), params: byUse.params + queryUse.params }, text);
  if (Array.isArray(vars)) return { groupBy: vars.slice(0, byUse.params), query: vars.slice(byUse.params) };
  const pick = (names: ReadonlySet<string>): Vars => Object.fromEntries(Object.entries(vars).filter(([n]) => names.has(n)));
  return { groupBy: pick(byUse.names), query: pick(queryUse.names) };
}

/** The columns a task reads (before the filter's). */
export function keyColumns(key: GroupKey): string[] {
  switch (key.kind) {
    case 'expr':
      return referencedColumns(key.typed);
    case 'bucket':
      return referencedColumns(key.arg);
    case 'h3point':
      return [key.lat.name, key.lon.name];
    case 'h3geom':
      return [key.column.name];
  }
}

function groupKey(expr: Expr, schema: Schema, query: string): GroupKey {
  if (expr.kind === 'call') {
    const name = expr.name.toLowerCase();
    if (name === 'bucket' || name === 'buckets') return bucketKey(expr, schema, query);
    if (name === 'h3') return h3Key(expr, schema, query);
    throw typeError(query, expr, `unknown function '${expr.name}' at ${expr.pos}; group keys know bucket(...), buckets(...) and h3(...)`);
  }
  return { kind: 'expr', typed: typecheckValue(expr, schema, query) };
}

function bucketKey(e: CallExpr, schema: Schema, query: string): GroupKey {
  const [field, ...rest] = e.args;
  if (!field || rest.length === 0) throw syntaxError(query, e, `${e.name}(field, v1, ..., vn) needs a field and at least one bound at ${e.pos}`);
  const arg = typecheckValue(field, schema, query);
  if (!isNumeric(arg.type)) throw typeError(query, field, `${e.name}(...) needs a numeric field, got ${arg.type} at ${field.pos}`);
  const bounds = rest.map((b) => {
    const v = typecheckValue(b, schema, query);
    if (v.kind !== 'literal' || (typeof v.value !== 'number' && typeof v.value !== 'bigint')) throw typeError(query, b, `a bucket bound must be a number, got '${b.token}' at ${b.pos}`);
    return Number(v.value);
  });
  // a repeated bound is one bucket
  return { kind: 'bucket', arg, bounds: [...new Set(bounds)] };
}

function h3Key(e: CallExpr, schema: Schema, query: string): GroupKey {
  const resArg = e.args[e.args.length - 1];
  if (!resArg || e.args.length > 3) throw syntaxError(query, e, `h3 takes (lat, lon, res), (geometry, res) or (res) at ${e.pos}`);
  const resTyped = typecheckValue(resArg, schema, query);
  const res = resTyped.kind === 'literal' ? Number(resTyped.value) : NaN;
  const problem = resolutionProblem(res);
  if (problem) throw typeError(query, resArg, `${problem} at ${resArg.pos}`);
  const column = (a: Expr, klass: string): TypedColumn => {
    const t = typecheckValue(a, schema, query);
    const field = t.kind === 'column' ? schema.fields.find((f) => f.name === t.name) : undefined;
    if (t.kind !== 'column' || !field || fieldInfo(field).class !== klass) throw typeError(query, a, `h3 needs a ${klass} column here, got '${a.token}' at ${a.pos}`);
    return t;
  };
  if (e.args.length === 3) return { kind: 'h3point', lat: column(e.args[0]!, 'latitude'), lon: column(e.args[1]!, 'longitude'), res };
  if (e.args.length === 2) return geometryKey(column(e.args[0]!, 'geometry'), schema, res);
  const first = firstSpatial(schema);
  if (!first) throw typeError(query, e, `h3(res) uses the first geometry column, but the table has none (at ${e.pos})`);
  const typed = (name: string) => typecheckValue({ kind: 'column', name, pos: e.pos, token: name }, schema, query) as TypedColumn;
  if ('geometry' in first) return geometryKey(typed(first.geometry), schema, res);
  return { kind: 'h3point', lat: typed(first.point.lat), lon: typed(first.point.lon), res };
}

function geometryKey(column: TypedColumn, schema: Schema, res: number): GroupKey {
  const wkb = isWkb(schema.fields.find((f) => f.name === column.name)!);
  return { kind: 'h3geom', column, wkb, res };
}

const FNS = new Map<string, Aggr>([['avg', 'avg'], ['mean', 'avg'], ['sum', 'sum'], ['min', 'min'], ['max', 'max'], ['count', 'count']]);

function aggregatedFields(schema: Schema, aggr: AggregateOptions['aggr'], table: string): AggField[] {
  if (aggr !== undefined && (typeof aggr !== 'object' || aggr === null || Array.isArray(aggr))) {
    throw new HaloclineError('InvalidArgument', 'aggr must be an object mapping column names to avg, mean, sum, min, max or count', { table });
  }
  const wanted: [string, string][] = aggr && Object.keys(aggr).length > 0
    ? Object.entries(aggr)
    : schema.fields.flatMap((f) => { const a = fieldInfo(f).aggr; return a ? [[f.name, a] as [string, string]] : []; });
  return wanted.map(([name, fnName]) => {
    const field = schema.fields.find((f) => f.name === name);
    if (!field) throw new HaloclineError('InvalidArgument', `aggr names unknown column "${name}"`, { table, column: name });
    const fn = FNS.get(String(fnName).toLowerCase());
    if (!fn) throw new HaloclineError('InvalidArgument', `aggr for "${name}" must be avg, mean, sum, min, max or count, got "${String(fnName)}"`, { table, column: name });
    const column = typecheckValue({ kind: 'column', name, pos: 0, token: name }, schema, name) as TypedColumn;
    if (fn !== 'count' && !(isNumeric(column.type))) {
      throw new HaloclineError('InvalidArgument', `aggr ${fn} needs a numeric column; "${name}" is ${column.type} (count works on any column)`, { table, column: name });
    }
    return { name, fn, column };
  });
}
