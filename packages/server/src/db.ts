// The server's own LMDB environment (<data>/server): catalog records, raw file entries, credentials, settings.
import { join } from 'node:path';
import { openSharedLmdb } from '@halocline/engine';
import type { Database, RootDatabase } from 'lmdb';

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
    close: () => handle.release(),
  };
}
