// Plans a select: validate the projection, prepare the filter, derive the zone-map pruning predicate.
import { Schema } from 'apache-arrow';
import { HaloclineError } from '../errors.js';
import { prepareFilter, zoneTests, type Vars } from '../expr/index.js';
import { NO_VARS, checkAllUsed } from '../expr/bind.js';
import { containsKind } from '../expr/typed.js';
import type { ZoneMaps } from '../expr/kernel.js';
import type { TaskFilter } from '../exec/task.js';
import { spatialPruner } from '../geo/rtree.js';
import type { PartRecord } from '../storage/records.js';

/** A prepared select over one schema. */
export interface Plan {
  readonly schema: Schema;
  /** Schema of the result (the projected fields, in the requested order). */
  readonly output: Schema;
  /** null: every row; otherwise the filter sent to scans. */
  readonly filter: TaskFilter | null;
  /** True when the filter folded to a constant false: no partition is read. */
  readonly empty: boolean;
  /** False when a partition's zone maps prove no row can match (remembered per zone-map object: they never change). */
  readonly mayMatch: (zones: ZoneMaps) => boolean;
  /** True when a partition's zone maps prove every row matches: counted without a scan, selected without a kernel. */
  readonly allMatch: (zones: ZoneMaps) => boolean;
  /** For spatial filters: the partitions whose bounds (in an R-tree) meet the query box. */
  readonly spatial?: ((parts: readonly PartRecord[]) => PartRecord[]) | null;
}

/** Select options: projected columns and bind variables. */
export interface SelectOptions {
  readonly cols?: readonly string[];
  readonly vars?: Vars;
}

/**
 * Builds the plan; throws QuerySyntax/QueryType/InvalidArgument with context on bad input. A plan
 * depends only on the schema, filter, columns and vars, so the last `CACHED` plans of each schema
 * object (a table's schema lives as long as its schema version) are reused: a query repeated in a
 * loop does not lex, parse, type-check and derive its pruning again (about a quarter of a narrow
 * indexed count before its code is optimised).
 */
export function plan(schema: Schema, table: string, filter: string | undefined, options: SelectOptions = {}): Plan {
  checkOptions(options, SELECT_OPTIONS, table);
  const key = planKey(filter, options);
  if (key === null) return build(schema, table, filter, options);
  let plans = cache.get(schema);
  if (!plans) cache.set(schema, (plans = new Map()));
  let p = plans.get(key);
  if (p) plans.delete(key); // to the back: least recently used first
  else p = build(schema, table, filter, options);
  plans.set(key, p);
  if (plans.size > CACHED) plans.delete(plans.keys().next().value!);
  return p;
}

const CACHED = 64;

/** The option names of a select (`SelectOptions`), of a delete or replace (`vars` alone), of an aggregate. */
export const SELECT_OPTIONS: ReadonlySet<string> = new Set(['cols', 'vars']);
export const MATCH_OPTIONS: ReadonlySet<string> = new Set(['vars']);
export const AGGREGATE_OPTIONS: ReadonlySet<string> = new Set(['query', 'aggr', 'vars']);

/**
 * InvalidArgument unless `options` is an object whose keys are all `known`: a misspelt option
 * (`{ colz: [...] }`) would otherwise be ignored, and the call answer something else than asked.
 */
export function checkOptions(options: unknown, known: ReadonlySet<string>, table: string): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new HaloclineError('InvalidArgument', `options must be an object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`, { table });
  }
  for (const key in options) {
    if (!known.has(key)) throw new HaloclineError('InvalidArgument', `unknown option "${key}"; the options are ${[...known].join(', ')}`, { table });
  }
}
const cache = new WeakMap<Schema, Map<string, Plan>>();

// the cache key of a well-formed request; null (not cached) for anything else, which `build` judges
function planKey(filter: unknown, options: SelectOptions): string | null {
  if (filter !== undefined && typeof filter !== 'string') return null;
  const { cols, vars } = options;
  if (cols !== undefined && (!Array.isArray(cols) || !cols.every((c) => typeof c === 'string'))) return null;
  const bound = vars === undefined ? '' : varsKey(vars);
  if (bound === null) return null;
  return JSON.stringify([filter ?? '', cols ?? null, bound]);
}

// the values of `vars`, each tagged with its kind; null when one is not a plain value
function varsKey(vars: Vars): string | null {
  if (typeof vars !== 'object' || vars === null) return null;
  const parts: string[] = [];
  for (const [name, v] of Object.entries(vars)) {
    let tagged: string;
    if (v === null) tagged = 'z';
    else if (typeof v === 'number') tagged = Object.is(v, -0) ? 'n-0' : `n${v}`;
    else if (typeof v === 'string') tagged = `s${v}`;
    else if (typeof v === 'bigint') tagged = `b${v}`;
    else if (typeof v === 'boolean') tagged = `t${v}`;
    else if (v instanceof Date) tagged = `d${v.getTime()}`;
    else return null;
    parts.push(name, tagged);
  }
  return JSON.stringify([Array.isArray(vars), parts]);
}

function build(schema: Schema, table: string, filter: string | undefined, options: SelectOptions): Plan {
  const output = projection(schema, table, options.cols);
  if (filter !== undefined && typeof filter !== 'string') {
    throw new HaloclineError('InvalidArgument', `the filter must be a query string, got ${typeof filter}`, { table });
  }
  if (filter === undefined || filter.trim() === '') {
    checkAllUsed(options.vars, NO_VARS, filter ?? '');
    return everything(schema, output);
  }
  const prepared = prepareFilter(filter, schema, options.vars);
  if (prepared.constant === true) return everything(schema, output);
  if (prepared.constant === false) return { schema, output, filter: null, empty: true, mayMatch: () => false, allMatch: () => false };
  return {
    schema,
    output,
    filter: { typed: prepared.typed, key: prepared.key, columns: prepared.columns, exact: containsKind(prepared.typed, 'geo') },
    empty: false,
    ...zoneTests(prepared.typed),
    spatial: spatialPruner(schema, prepared.typed),
  };
}

const everything = (schema: Schema, output: Schema): Plan => ({ schema, output, filter: null, empty: false, mayMatch: () => true, allMatch: () => true });

function projection(schema: Schema, table: string, cols: readonly string[] | undefined): Schema {
  if (cols === undefined) return schema;
  if (!Array.isArray(cols)) throw new HaloclineError('InvalidArgument', 'cols must be an array of column names', { table });
  const seen = new Set<string>();
  const fields = cols.map((name) => {
    const field = schema.fields.find((f) => f.name === name);
    if (!field) {
      throw new HaloclineError('InvalidArgument', `unknown column "${String(name)}" in cols; the table has ${schema.fields.map((f) => f.name).join(', ')}`, { table, column: String(name) });
    }
    if (seen.has(name)) throw new HaloclineError('InvalidArgument', `column "${name}" appears twice in cols`, { table, column: name });
    seen.add(name);
    return field;
  });
  return new Schema(fields, schema.metadata);
}
