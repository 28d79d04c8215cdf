// An in-memory CatalogSource: the catalog of tests, benchmarks and embedded use without a store.
import type { CatalogChange, CatalogSource, Resource } from './source.js';

/**
 * Resources in a Map by uuid; put/delete notify listeners synchronously.
 * @example
 * const source = new MemorySource([collection, dataset]);
 * source.delete(dataset.metadata.uuid);
 */
export class MemorySource implements CatalogSource {
  readonly #resources = new Map<string, Resource>();
  readonly #listeners = new Set<(change: CatalogChange) => void>();

  constructor(resources: Iterable<Resource> = []) {
    for (const r of resources) this.#resources.set(r.metadata.uuid, r);
  }

  all(): Iterable<Resource> {
    return this.#resources.values();
  }

  onChange(listener: (change: CatalogChange) => void): () => void {
    const own = (change: CatalogChange) => listener(change);
    this.#listeners.add(own);
    return () => this.#listeners.delete(own);
  }

  /** Creates or replaces the resource with this uuid. */
  put(resource: Resource): void {
    this.#resources.set(resource.metadata.uuid, resource);
    this.#emit({ type: 'put', resource });
  }

  /** Removes a resource; returns false when there was none. */
  delete(uuid: string): boolean {
    if (!this.#resources.delete(uuid)) return false;
    this.#emit({ type: 'delete', uuid });
    return true;
  }

  get size(): number {
    return this.#resources.size;
  }

  #emit(change: CatalogChange): void {
    for (const l of this.#listeners) l(change);
  }
}
