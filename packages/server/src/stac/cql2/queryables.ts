// The properties a filter or sortby may address, their types, and how to read them from an index entry.
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';
import type { CatalogIndex } from '../index/catalog-index.js';
import type { DatasetEntry } from '../index/entry.js';
import { storageClassOf } from '../map/item.js';

/** Value types of queryables; timestamps are epoch-ms intervals [start, end] (an instant has start = end). */
export type QueryableType = 'string' | 'number' | 'timestamp' | 'geometry' | 'strings';

/** A readable property. `get` returns null when the item has no value. */
export interface Queryable {
  readonly type: QueryableType;
  readonly description: string;
  get(entry: DatasetEntry, index: CatalogIndex): string | number | readonly [number, number] | Geometry | readonly string[] | null;
}

const spec = (e: DatasetEntry) => e.resource.spec;
const str = (v: unknown) => (typeof v === 'string' ? v : null);
const instant = (t: number | undefined) => (t === undefined ? null : ([t, t] as const));

const FIXED: Record<string, Queryable> = {
  id: { type: 'string', description: 'Item id (dataset UUID)', get: (e) => e.uuid },
  collection: { type: 'string', description: 'Collection id (data collection UUID)', get: (e, i) => i.collectionOf(e) ?? null },
  geometry: { type: 'geometry', description: 'Footprint (static-geometric-coverage observable)', get: (e) => e.jsts() ?? null },
  datetime: { type: 'timestamp', description: 'Time coverage, or the creation time when the dataset has none', get: (e) => [e.start, e.end] },
  start_datetime: { type: 'timestamp', description: 'Start of the time coverage', get: (e) => instant(e.coverage?.start) },
  end_datetime: { type: 'timestamp', description: 'End of the time coverage', get: (e) => instant(e.coverage?.end) },
  created: { type: 'timestamp', description: 'When the dataset was created', get: (e) => instant(e.created) },
  updated: { type: 'timestamp', description: 'When the dataset was last updated', get: (e) => instant(e.updated) },
  title: { type: 'string', description: 'Display name', get: (e) => e.resource.metadata.display_name ?? e.resource.metadata.name },
  description: { type: 'string', description: 'Description', get: (e) => e.resource.metadata.description ?? null },
  name: { type: 'string', description: 'Unique catalog name', get: (e) => e.name },
  keywords: { type: 'strings', description: 'Tags', get: (e) => (Array.isArray(spec(e)['tags']) ? (spec(e)['tags'] as unknown[]).filter((t): t is string => typeof t === 'string') : null) },
  storage_class: { type: 'string', description: 'raw or tabular', get: (e) => storageClassOf(spec(e)['storage_class']) ?? null },
  time_attribute: { type: 'string', description: 'Attribute of the time coverage', get: (e) => e.coverage?.attribute ?? null },
  'maintainer.contact': { type: 'string', description: 'Maintainer contact', get: (e) => str((spec(e)['maintainer'] as Record<string, unknown> | undefined)?.['contact']) },
  'maintainer.organisation': { type: 'string', description: 'Maintainer organisation', get: (e) => str((spec(e)['maintainer'] as Record<string, unknown> | undefined)?.['organisation']) },
};

/**
 * The queryable a filter or sortby names (`title` or `properties.title`; `facets.<key>` for any facet),
 * or undefined when there is none.
 * @example
 * queryable('properties.datetime')?.type // 'timestamp'
 */
export function queryable(name: string): Queryable | undefined {
  const bare = name.startsWith('properties.') ? name.slice('properties.'.length) : name;
  // own keys only: `constructor`, `toString` or `__proto__` are not queryables
  if (Object.hasOwn(FIXED, bare)) return FIXED[bare];
  if (bare.startsWith('facets.') && bare.length > 'facets.'.length) {
    const key = bare.slice('facets.'.length);
    return { type: 'string', description: `Facet ${key}`, get: (e) => str((spec(e)['facets'] as Record<string, unknown> | undefined)?.[key]) };
  }
  return undefined;
}

/** The names of the fixed queryables (for error messages). */
export const QUERYABLE_NAMES = Object.keys(FIXED);

/** The `/queryables` JSON Schema document. */
export function queryablesSchema(id: string): unknown {
  const schemaOf = (q: Queryable): Record<string, unknown> => {
    switch (q.type) {
      case 'string': return { type: 'string' };
      case 'number': return { type: 'number' };
      case 'timestamp': return { type: 'string', format: 'date-time' };
      case 'geometry': return { $ref: 'https://geojson.org/schema/Geometry.json' };
      case 'strings': return { type: 'array', items: { type: 'string' } };
    }
  };
  const properties: Record<string, unknown> = {};
  for (const [name, q] of Object.entries(FIXED)) properties[name] = { description: q.description, ...schemaOf(q) };
  return {
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    $id: id,
    type: 'object',
    title: 'Queryables of Halocline STAC items',
    description: 'Also facets.<key> (string) for any dataset facet.',
    properties,
    patternProperties: { '^facets\\.': { type: 'string' } },
    additionalProperties: false,
  };
}
