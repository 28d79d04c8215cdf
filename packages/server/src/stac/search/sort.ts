// The sort extension: `sortby` as `+a,-b` (GET, or a POST string) or `[{field, direction}]` (POST).
import { queryable } from '../cql2/queryables.js';
import { invalid } from '../errors.js';
import type { CatalogIndex } from '../index/catalog-index.js';
import type { DatasetEntry } from '../index/entry.js';

/** One sort key; `field` as the client named it. */
export interface SortKey {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

/** A sortable value: numbers for timestamps and numbers, strings otherwise; null sorts last. */
export type SortValue = string | number | null;

/**
 * Parses sortby; only string, number and timestamp queryables sort.
 * @example
 * parseSortby('-datetime,title') // [{field:'datetime',direction:'desc'},{field:'title',direction:'asc'}]
 */
export function parseSortby(value: unknown): SortKey[] {
  let keys: SortKey[];
  if (typeof value === 'string') {
    keys = value.split(',').map((s) => s.trim()).filter((s) => s !== '').map((s) => {
      const desc = s.startsWith('-');
      return { field: s.replace(/^[+-]/, '').trim(), direction: desc ? 'desc' : 'asc' } as SortKey;
    });
  } else if (Array.isArray(value)) {
    keys = value.map((k, i) => {
      const o = k as { field?: unknown; direction?: unknown };
      if (typeof o?.field !== 'string') throw invalid('sortby', `element ${i} needs a "field" string`);
      const d = o.direction ?? 'asc';
      if (d !== 'asc' && d !== 'desc') throw invalid('sortby', `element ${i}: direction must be "asc" or "desc", got ${JSON.stringify(d)}`);
      return { field: o.field, direction: d };
    });
  } else {
    throw invalid('sortby', `must be a string like "-datetime,title" or an array of {field, direction}, got ${JSON.stringify(value)}`);
  }
  if (keys.length === 0) throw invalid('sortby', 'names no field');
  for (const k of keys) {
    const q = queryable(k.field);
    if (!q) throw invalid('sortby', `unknown field '${k.field}' (see /api/stac/queryables)`);
    if (q.type === 'geometry' || q.type === 'strings') throw invalid('sortby', `'${k.field}' (${q.type}) is not sortable`);
  }
  return keys;
}

/** The sort values of an entry for `keys`. */
export function sortValues(keys: readonly SortKey[], entry: DatasetEntry, index: CatalogIndex): SortValue[] {
  return keys.map((k) => {
    const v = queryable(k.field)!.get(entry, index);
    return Array.isArray(v) ? (v[0] as number) : (v as string | number | null);
  });
}

/** Compares two sort-value tuples under `keys` (nulls last in both directions). */
export function compareValues(keys: readonly SortKey[], a: readonly SortValue[], b: readonly SortValue[]): number {
  for (let i = 0; i < keys.length; i++) {
    const [x, y] = [a[i] ?? null, b[i] ?? null];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    const c = x < y ? -1 : 1;
    return keys[i]!.direction === 'desc' ? -c : c;
  }
  return 0;
}
