// What the STAC API reads: catalog resources in the wire manifest shape, and a source that lists them and reports changes.

import type { ResourceMetadata, ResourceStatus } from '../catalog/resource.js';

export type { ResourceMetadata, ResourceStatus };

/**
 * One catalog resource as the catalog stores and serves it.
 * `kind` is `catalog.<domain>/dataset`, `catalog.<domain>/dataCollection` or `catalog.<domain>/observable`;
 * other kinds are ignored by the STAC API. `spec` is kept loose: the catalog validated it, and the STAC
 * mapping reads it defensively (a malformed field is left out of the STAC document, never a 500).
 */
export interface Resource {
  readonly kind: string;
  readonly version: string;
  readonly metadata: ResourceMetadata;
  readonly spec: Readonly<Record<string, unknown>>;
  readonly owner?: string;
  readonly status: ResourceStatus;
}

/** A change to the catalog: a resource created or replaced (same uuid), or deleted. */
export type CatalogChange =
  | { readonly type: 'put'; readonly resource: Resource }
  | { readonly type: 'delete'; readonly uuid: string };

/**
 * The catalog as the STAC API sees it.
 *
 * Contract: `onChange` registers a listener and returns its unsubscribe function. After it returns,
 * every committed change is reported exactly once, in commit order, synchronously or soon after the
 * commit. `all()` lists the committed resources at the moment it is called. The STAC index subscribes
 * first and then reads `all()`; a put replays idempotently (by uuid), so a change reported and also
 * seen by `all()` does no harm.
 * @example
 * const source = new MemorySource();
 * const stop = source.onChange((c) => console.log(c.type));
 * source.put(manifest);
 * stop();
 */
export interface CatalogSource {
  all(): Iterable<Resource>;
  onChange(listener: (change: CatalogChange) => void): () => void;
}
