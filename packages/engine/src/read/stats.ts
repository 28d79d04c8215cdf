// Table statistics from the zone maps of a snapshot: rows, bytes, and per column nulls and range.
import { typeName } from '../schema/types.js';
import type { Snapshot } from './snapshot.js';

/** Statistics of one column (the wire shape of the tabular v2 `stats` call). */
export interface ColumnStats {
  readonly name: string;
  readonly type: string;
  readonly null_count: number;
  readonly num_values: number;
  readonly min: number | bigint | string | boolean | null;
  readonly max: number | bigint | string | boolean | null;
  readonly metadata: Record<string, string>;
}

/** Statistics of a table. `size` is bytes on disk. */
export interface TableStats {
  readonly num_rows: number;
  readonly size: number;
  readonly columns: readonly ColumnStats[];
}

/** Merges the zone maps of every visible partition. Min and max are in the column's storage domain. */
export function tableStats(snap: Snapshot): TableStats {
  const columns = snap.schema.fields.map((f): ColumnStats => {
    let nulls = 0;
    let min: ColumnStats['min'] = null;
    let max: ColumnStats['max'] = null;
    for (const p of snap.parts) {
      const z = p.zones[f.name];
      if (!z) continue;
      nulls += z.nullCount;
      if (z.min !== null && (min === null || less(z.min, min))) min = z.min;
      if (z.max !== null && (max === null || less(max, z.max))) max = z.max;
    }
    const rows = snap.parts.reduce((n, p) => n + p.rows, 0);
    return { name: f.name, type: typeName(f.type), null_count: nulls, num_values: rows - nulls, min, max, metadata: Object.fromEntries(f.metadata) };
  });
  return {
    num_rows: snap.parts.reduce((n, p) => n + p.rows, 0),
    size: snap.parts.reduce((n, p) => n + p.bytes, 0),
    columns,
  };
}

// strings order by UTF-8 bytes, as the zone maps do
function less(a: NonNullable<ColumnStats['min']>, b: NonNullable<ColumnStats['min']>): boolean {
  return typeof a === 'string' && typeof b === 'string' ? Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0 : a < b;
}
