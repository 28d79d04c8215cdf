// The server's own LMDB environment (<data>/server): catalog records, raw file entries, credentials, settings.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';

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

/** Opens (creating) the server environment inside `dataDir`. */
export function openServerDb(dataDir: string): ServerDb {
  const path = join(dataDir, 'server');
  mkdirSync(path, { recursive: true });
  const root = open({ path, maxDbs: 8, compression: false });
  return {
    root,
    resources: root.openDB<unknown, string>({ name: 'resources' }),
    files: root.openDB<unknown, (string | number)[]>({ name: 'files' }),
    access: root.openDB<unknown, string[]>({ name: 'access' }),
    settings: root.openDB<unknown, string>({ name: 'settings' }),
    close: () => root.close(),
  };
}
