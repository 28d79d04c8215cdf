// Storage of a dataset by class: a raw file directory, or an engine table named by the dataset UUID.
import { isHaloclineError } from '@halocline/engine';
import type { DatasetStorage } from '../catalog/routes.js';
import type { AppContext } from './context.js';
import { storageClassOf } from './datasets.js';

/** Provisioning and removal used by the catalog's create and delete. */
export function datasetStorage(ctx: AppContext): DatasetStorage {
  return {
    // a tabular table comes into being with its schema (POST /data/{ref}/schema); nothing to do before
    provision: async (ds) => {
      if (storageClassOf(ctx, ds) === 'raw') await ctx.files.provision(ds.metadata.uuid);
    },
    remove: async (ds) => {
      if (storageClassOf(ctx, ds) === 'raw') return ctx.files.removeDataset(ds.metadata.uuid);
      // what the table's clients left open ends first: nothing may commit into (or read) a later table of this name
      for (const leases of [ctx.txs, ctx.stages, ctx.selectCursors, ctx.listCursors]) leases.expireTable(ds.metadata.uuid);
      const t = ctx.store.table(ds.metadata.uuid);
      // the raw files beside the table (they outlive a drop, and exist without a table too)
      for (const f of await t.raw.list()) await ignoreNotFound(t.raw.delete(f.id));
      if (await t.schema()) await ignoreNotFound(t.drop());
    },
  };
}

async function ignoreNotFound(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (e) {
    if (!isHaloclineError(e, 'NotFound')) throw e;
  }
}
