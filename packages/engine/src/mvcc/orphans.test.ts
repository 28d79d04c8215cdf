// Orphan removal at open against a process that commits and closes while it runs.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openStore } from '../index.js';
import { openLmdbMetaStore } from '../storage/lmdb.js';
import { LocalBlobStore } from '../storage/localfs.js';
import { partsFolder } from '../storage/records.js';
import { runChild } from '../test-util/mp.js';
import { tempDir } from '../test-util/tmp.js';
import { removeOrphans } from './orphans.js';
import { Readers } from './readers.js';

it('keeps the file of a process that commits and closes while orphans are being removed', async () => {
  const dir = await tempDir();
  try {
    await (await openStore({ path: dir.path, workers: 0 })).close();
    const meta = await openLmdbMetaStore(join(dir.path, 'meta'));
    const readers = await Readers.open(dir.path);
    const blobs = new LocalBlobStore(dir.path);
    let first = true;
    const racing = {
      // another process commits a partition and closes just before the files are listed
      async list(folder: string) {
        if (first) {
          first = false;
          await runChild(dir.path, 'writer', '7', 1);
        }
        return blobs.list(folder);
      },
      remove: (path: string) => blobs.remove(path),
    };
    try {
      await removeOrphans(meta, racing, readers);
      expect(await blobs.list(partsFolder)).toHaveLength(1);
    } finally {
      await readers.close();
      await meta.close();
    }
    const store = await openStore({ path: dir.path, workers: 0 });
    try {
      expect(await store.table('shared').select('proc == 7').count()).toBe(20);
    } finally {
      await store.close();
    }
  } finally {
    await dir.remove();
  }
});
