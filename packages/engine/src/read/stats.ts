// Table statistics from the zone maps of a snapshot: rows, bytes, and per column nulls and range.
import { typeName } from '../schema/types.js';
import { type Snapshot, liveRows } from './snapshot.js';

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

/**
 * Merges the zone maps of every visible partition. Min and max are in the column's storage domain.
 * Row counts leave out deleted rows; after deletes, null counts, min and max are those of the
 * partitions' files (bounds) until compaction rewrites them, leaving out partitions whose rows are
 * all deleted; a column without values has no min and max.
 */
export function tableStats(snap: Snapshot): TableStats {
  const live = snap.parts.reduce((n, p) => n + liveRows(snap, p), 0);
  const columns = snap.schema.fields.map((f): ColumnStats => {
    let nulls = 0;
    let min: ColumnStats['min'] = null;
    let max: ColumnStats['max'] = null;
    for (const p of snap.parts) {
      const z = p.zones[f.name];
      const rows = liveRows(snap, p);
      // a partition whose rows are all deleted bounds nothing
      if (!z || rows === 0) continue;
      nulls += Math.min(z.nullCount, rows);
      if (z.min !== null && (min === null || less(z.min, min))) min = z.min;
      if (z.max !== null && (max === null || less(max, z.max))) max = z.max;
    }
    const values = live - nulls;
    return {
      name: f.name,
      type: typeName(f.type),
      null_count: nulls,
      num_values: values,
      min: values === 0 ? null : min,
      max: values === 0 ? null : max,
      metadata: Object.fromEntries(f.metadata),
    };
  });
  return {
    num_rows: live,
    size: snap.parts.reduce((n, p) => n + p.bytes, 0),
    columns,
  };
}

// strings order by UTF-8 bytes, as the zone maps do
function less(a: NonNullable<ColumnStats['min']>, b: NonNullable<ColumnStats['min']>): boolean {
  return typeof a === 'string' && typeof b === 'string' ? Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0 : a < b;
}
