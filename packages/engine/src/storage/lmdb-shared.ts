// One lmdb-js handle per environment directory per process, shared by every store opened on it.
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { open, type RootDatabase, type RootDatabaseOptionsWithPath } from 'lmdb';
import { checkLmdbBuild } from './lmdb-build.js';
import { checkDataFile } from './lmdb-file.js';

/** A use of a shared handle; `release` closes the environment once its last use is released. */
export interface SharedLmdb<V> {
  readonly db: RootDatabase<V, string>;
  release(): Promise<void>;
}

interface Entry {
  db: RootDatabase<unknown, string>;
  options: string;
  uses: number;
  /** The periodic check for readers of dead processes (unref'd). */
  check: NodeJS.Timeout;
  /** Set once the last use is released: the close still running. */
  closing?: Promise<void>;
}

const handles = new Map<string, Entry>();

/**
 * Opens (creating if needed) the environment in the directory `path`, or takes another use of the handle this
 * process already has on it. A second `open()` of one environment in one process deadlocks: lmdb-js
 * opens it with a synchronous write transaction, which waits for the environment's write lock while
 * the first handle's write thread holds that lock waiting for this same (now blocked) JS thread to
 * run its transaction callback. LMDB itself says not to open an environment twice in a process.
 * Every use must pass the same options. An open while the last use's close runs waits for the close.
 * `Corrupt` when the environment's data file is not an LMDB environment or is cut short (see `checkDataFile`).
 * Throws when lmdb-js's binary is not the one built with Halocline's fix to LMDB (see `checkLmdbBuild`).
 *
 * Always without lmdb-js's `overlappingSync` (its default where `noSync` is not set): each commit is
 * made durable inside its write transaction, as in plain LMDB. With it, a commit's fsync runs after the
 * write lock is released, under a second cross-process mutex; when a process is killed holding that
 * mutex (mid-fsync, where kill -9 often lands), the next process to take it "recovers" it as if it
 * were the write lock: it resets the lock file's last transaction id without holding the write lock
 * (racing a concurrent commit, whose transaction the next writer then overwrites: a whole
 * acknowledged commit lost) and marks its own environment fatal when it has a write transaction
 * open. Several processes committing while one is killed lost commits, corrupted the free list
 * ("duplicate value", "freelist entry had bad/duplicate entries") and crashed (SIGSEGV) within a
 * minute; without it, no commit was lost in the same runs. lmdb-js's LMDB also stored that id
 * without the write lock at every open, losing a commit made by another process meanwhile, and a
 * process closing the environment as its last user destroyed the lock file's mutexes under one that
 * was opening it; this package's postinstall builds lmdb-js without either (scripts/patch-lmdb.mjs),
 * and `checkLmdbBuild` makes sure that build is the one loaded (docs/architecture.md, "Several
 * processes").
 */
export async function openShared<V>(path: string, options: Omit<RootDatabaseOptionsWithPath, 'path'>): Promise<SharedLmdb<V>> {
  checkLmdbBuild();
  mkdirSync(path, { recursive: true });
  const key = realpathSync(path);
  const described = JSON.stringify(options);
  let entry = handles.get(key);
  while (entry?.closing) {
    await entry.closing;
    entry = handles.get(key);
  }
  if (entry && entry.options !== described) {
    throw new Error(`LMDB environment ${key} is already open in this process with other options`);
  }
  if (!entry) {
    checkDataFile(join(key, 'data.mdb')); // synchronous: no other open of this path may start meanwhile
    const db = open<unknown, string>({ ...options, overlappingSync: false, path: key });
    entry = { db, options: described, uses: 0, check: setInterval(() => clearStaleReaders(db), READER_CHECK_MS).unref() };
    handles.set(key, entry);
  }
  entry.uses++;
  const taken = entry;
  let released = false;
  return {
    db: taken.db as RootDatabase<V, string>,
    async release() {
      if (released) return;
      released = true;
      if (--taken.uses > 0) return;
      clearInterval(taken.check);
      taken.closing = taken.db.close().finally(() => handles.delete(key));
      await taken.closing;
    },
  };
}

/**
 * How often each open environment clears the reader slots of processes that died holding a read
 * snapshot (kill -9). LMDB cannot reuse a page freed after the oldest snapshot in its reader table, so
 * such a slot makes the data file grow by every commit's copied pages until it is cleared; lmdb-js
 * clears them when a process opens the environment and at most every 10 minutes on a write.
 */
export const READER_CHECK_MS = 30_000;

/** Clears the reader slots of dead processes in every environment this process has open; how many. */
export function checkReaders(): number {
  let cleared = 0;
  for (const entry of handles.values()) if (!entry.closing) cleared += clearStaleReaders(entry.db);
  return cleared;
}

function clearStaleReaders(db: RootDatabase<unknown, string>): number {
  try {
    return db.readerCheck();
  } catch {
    return 0; // closing meanwhile: nothing to clear
  }
}
