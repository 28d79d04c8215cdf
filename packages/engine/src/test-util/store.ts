// A store in a fresh temporary directory for one test, closed and removed when the test finishes.
import { onTestFinished } from 'vitest';
import { type Store, type StoreOptions, openStore } from '../index.js';
import { tempDir } from './tmp.js';

/** Opens a store (inline scans unless `workers` says otherwise) that lives for the current test. */
export async function freshStore(options: Partial<StoreOptions> = {}): Promise<Store> {
  const dir = await tempDir();
  const store = await openStore({ workers: 0, ...options, path: dir.path });
  onTestFinished(async () => {
    await store.close();
    await dir.remove();
  });
  return store;
}
