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

/** Runs `f` on a store in a fresh temporary directory, closed and removed when `f` settles (e.g. one run of a property). */
export async function withStore<T>(options: Partial<StoreOptions>, f: (store: Store) => Promise<T>): Promise<T> {
  const dir = await tempDir();
  try {
    const store = await openStore({ workers: 0, ...options, path: dir.path });
    try {
      return await f(store);
    } finally {
      await store.close();
    }
  } finally {
    await dir.remove();
  }
}
