// What a delete leaves to finish: storage removals a failure or crash interrupted, and observables of
// datasets deleted before observables went with them.
import type { FastifyBaseLogger } from 'fastify';
import type { Kinds } from './kinds.js';
import type { DatasetStorage } from './routes.js';
import type { CatalogStore } from './store.js';

/**
 * Removes the storage of deleted datasets (default: every pending removal, as at start-up) and
 * records each as done; a failure is logged and left pending for the next start.
 */
export async function finishStorageRemovals(catalog: CatalogStore, storage: DatasetStorage, log: FastifyBaseLogger, datasets = catalog.pendingRemovals()): Promise<void> {
  for (const ds of datasets) {
    try {
      await storage.remove(ds);
      await catalog.removalDone(ds.metadata.uuid);
    } catch (err) {
      log.error({ err, dataset: ds.metadata.uuid }, 'removing the storage of a deleted dataset failed; it is tried again at the next start');
    }
  }
}

/**
 * Deletes (in one transaction) the observables whose `spec.ref` names a dataset that does not exist:
 * left by deletes from before a dataset took its observables along. They would otherwise attach to
 * a later dataset of that name. Resolves with their names.
 */
export async function removeOrphanObservables(catalog: CatalogStore, kinds: Kinds, log: FastifyBaseLogger): Promise<string[]> {
  const prefix = `${kinds.dataset}/`;
  const orphans = [...catalog.all()].filter((r) => {
    const ref = r.spec.ref;
    return r.kind === kinds.observable && typeof ref === 'string' && ref.startsWith(prefix) && !catalog.getByName(kinds.dataset, ref.slice(prefix.length));
  });
  if (orphans.length === 0) return [];
  await catalog.deleteAll(orphans.map((o) => o.metadata.uuid));
  const names = orphans.map((o) => o.metadata.name);
  log.warn({ observables: names }, `deleted ${names.length} observable(s) of datasets deleted earlier`);
  return names;
}
