// The server's own LMDB environment (<data>/server): catalog records, raw file entries, credentials, settings.
import { join } from 'node:path';
import { openSharedLmdb } from '@halocline/engine';
import { ABORT, type Database, type RootDatabase } from 'lmdb';

/** The named databases of the server environment; keys are LMDB ordered keys, values msgpack. */
export interface ServerDb {
  readonly root: RootDatabase;
  /** uuid → stored resource; ['seq'] counters live in `settings`. */
  readonly resources: Database<unknown, string>;
  /** [dataset uuid, seq] → file entry; ['n', dataset uuid, name] → seq. */
  readonly files: Database<unknown, (string | number)[]>;
  /** [kind, id] → credential record (api keys, clients, grants). */
  readonly access: Database<unknown, string[]>;
  /** name → value (signing key, counters, bootstrap marker). */
  readonly settings: Database<unknown, string>;
  /**
   * Runs `fn`'s reads and writes as one transaction: committed together, or (when `fn` throws)
   * none of them, with the error rethrown. Use it for every multi-step change: lmdb-js batches
   * plain `transaction()` callbacks together and commits a callback's writes even when it throws.
   */
  atomic<R>(fn: () => R): Promise<R>;
  close(): Promise<void>;
}

/** Opens (creating) the server environment inside `dataDir`; every open of it in a process shares one handle (a second lmdb-js open can deadlock). */
export async function openServerDb(dataDir: string): Promise<ServerDb> {
  const handle = await openSharedLmdb<unknown>(join(dataDir, 'server'), { maxDbs: 8, compression: false });
  const root = handle.db;
  return {
    root,
    resources: root.openDB<unknown, string>({ name: 'resources' }),
    files: root.openDB<unknown, (string | number)[]>({ name: 'files' }),
    access: root.openDB<unknown, string[]>({ name: 'access' }),
    settings: root.openDB<unknown, string>({ name: 'settings' }),
    atomic: (fn) => atomic(root, fn),
    close: () => handle.release(),
  };
}

async function atomic<R>(root: RootDatabase, fn: () => R): Promise<R> {
  let failure: { error: unknown } | undefined;
  // only a child transaction can be rolled back alone (as the engine's LmdbMetaStore.write does)
  const result = await root.transaction(() =>
    root.childTransaction(() => {
      try {
        return fn();
      } catch (error) {
        failure = { error };
        return ABORT;
      }
    }),
  );
  if (failure) throw failure.error;
  await root.flushed;
  return result as R;
}
