// References between catalog resources by name: observables name their dataset (`spec.ref`), datasets their collection (`spec.data_collection`).
import type { Kinds } from './kinds.js';
import type { Resource } from './resource.js';
import type { CatalogReader } from './store.js';

/**
 * The resources that refer to `r` by its name: the observables of a dataset, the datasets of a data
 * collection; none for other kinds. A full scan of the in-memory catalog (deletes and renames only).
 * @example
 * referrersOf(catalog, kinds, dataset).map((o) => o.metadata.name) // ['north-sea-footprint']
 */
export function referrersOf(catalog: CatalogReader, kinds: Kinds, r: Resource): Resource[] {
  const [kind, field] = r.kind === kinds.dataset ? [kinds.observable, 'ref'] : r.kind === kinds.dataCollection ? [kinds.dataset, 'data_collection'] : [];
  if (kind === undefined || field === undefined) return [];
  const ref = `${r.kind}/${r.metadata.name}`;
  return [...catalog.all()].filter((x) => x.kind === kind && x.spec[field] === ref);
}

/** The names of `rs` for a message: the first ten, then how many in all. */
export function namesOf(rs: readonly Resource[]): string {
  const names = rs.slice(0, 10).map((r) => r.metadata.name);
  return names.join(', ') + (rs.length > 10 ? `, … (${rs.length} in all)` : '');
}
