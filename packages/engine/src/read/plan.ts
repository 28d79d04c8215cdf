// Plans a select: validate the projection, prepare the filter, derive the zone-map pruning predicate.
import { Schema } from 'apache-arrow';
import { HaloclineError } from '../errors.js';
import { prepareFilter, zoneAllMatch, zonePredicate, type Vars } from '../expr/index.js';
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
  /** False when a partition's zone maps prove no row can match. */
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

/** Builds the plan; throws QuerySyntax/QueryType/InvalidArgument with context on bad input. */
export function plan(schema: Schema, table: string, filter: string | undefined, options: SelectOptions = {}): Plan {
  const output = projection(schema, table, options.cols);
  if (filter !== undefined && typeof filter !== 'string') {
    throw new HaloclineError('InvalidArgument', `the filter must be a query string, got ${typeof filter}`, { table });
  }
  if (filter === undefined || filter.trim() === '') return everything(schema, output);
  const prepared = prepareFilter(filter, schema, options.vars);
  if (prepared.constant === true) return everything(schema, output);
  if (prepared.constant === false) return { schema, output, filter: null, empty: true, mayMatch: () => false, allMatch: () => false };
  return {
    schema,
    output,
    filter: { typed: prepared.typed, key: prepared.key, columns: prepared.columns, exact: containsKind(prepared.typed, 'geo') },
    empty: false,
    mayMatch: zonePredicate(prepared.typed),
    allMatch: zoneAllMatch(prepared.typed),
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
