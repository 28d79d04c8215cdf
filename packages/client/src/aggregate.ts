// Final aggregates from the wire's partials: the engine's `aggregate` shape, computed on the client.
import { type AggregateOptions, checkFinalNames } from '@halocline/engine';
import { Float64, type Schema, Table as ArrowTable, type Vector, vectorFromArray } from 'apache-arrow';

const PARTS = ['_sum', '_count', '_min', '_max'];

/**
 * Renames the key column "" to `groupBy` and turns each field's partials into its aggregate
 * (`aggr[f]`, else the column's `aggr` metadata; mean = avg = sum / count), keeping `*`.
 */
export function finalFromPartials(partials: ArrowTable, groupBy: string, options: AggregateOptions, schema: Schema): ArrowTable {
  const names = partials.schema.fields.map((f) => f.name);
  const fields = names.filter((n) => n.endsWith('_sum')).map((n) => n.slice(0, -4)).filter((f) => PARTS.every((p) => names.includes(`${f}${p}`)));
  checkFinalNames(groupBy.trim(), fields);
  const columns: Record<string, Vector> = { [groupBy.trim()]: partials.getChild('')! };
  for (const f of fields) {
    const fn = normalize((options.aggr as Record<string, string> | undefined)?.[f] ?? schema.fields.find((x) => x.name === f)?.metadata.get('aggr') ?? 'sum');
    const sum = partials.getChild(`${f}_sum`)!;
    const count = partials.getChild(`${f}_count`)!;
    const pick = fn === 'avg' ? null : partials.getChild(`${f}_${fn}`)!;
    const values: (number | null)[] = [];
    for (let i = 0; i < partials.numRows; i++) {
      const n = count.get(i) as number;
      values.push(pick ? (pick.get(i) as number | null) : n > 0 ? (sum.get(i) as number) / n : null);
    }
    columns[f] = vectorFromArray(values, new Float64());
  }
  columns['*'] = partials.getChild('*')!;
  return new ArrowTable(columns);
}

function normalize(fn: string): 'sum' | 'count' | 'min' | 'max' | 'avg' {
  const f = fn.toLowerCase();
  return f === 'mean' ? 'avg' : (f as 'sum');
}
