// The reader table shared by every process that opens a store: live processes and the lowest table version each may read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { RootDatabase } from 'lmdb';
import { openShared, type SharedLmdb } from '../storage/lmdb-shared.js';

/**
 * Cross-process reader registry in its own LMDB environment (`<store>/readers`, no fsync: it only
 * matters while its processes live). Each process registers a token with its pid, and per table it
 * reads publishes a *floor*: a version at or below every version it has pinned. A process publishes
 * the floor synchronously before its first pin of a table, raises it as old pins go, and withdraws
 * it once it pins nothing there. A file retired at version R may be removed once every live
 * floor (and every local pin) is at least R. Floors of dead processes are ignored: a process is
 * dead when its pid is gone, or when the pid now belongs to a later process (its start time, where
 * the system tells it, differs from the one registered: a container restarted after kill -9 runs
 * its server under the same pid again).
 */
export class Readers {
  /** This process's token; it is part of every file name this store writes. */
  readonly token = randomBytes(4).toString('hex');
  private readonly published = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  private readonly db: RootDatabase<unknown, string>;

  private constructor(private readonly handle: SharedLmdb<unknown>) {
    this.db = handle.db;
  }

  /** Opens the reader table of the store at `path`, registers this process and forgets dead ones. */
  static async open(path: string): Promise<Readers> {
    const readers = new Readers(await openShared(join(path, 'readers'), { noSync: true, encoding: 'json' }));
    readers.db.putSync(procKey(readers.token), { pid: process.pid, start: processStart(process.pid) });
    readers.forgetDead();
    return readers;
  }

  /**
   * Makes sure other processes see a floor at or below `version` for table `tableId`. True when it
   * had to publish one: the caller must then re-read the table with a fresh read transaction, so
   * what it reads is no older than what a concurrent garbage collector could have seen.
   */
  ensure(tableId: string, version: number): boolean {
    const floor = this.published.get(tableId);
    if (floor !== undefined && floor <= version) return false;
    this.db.putSync(floorKey(tableId, this.token), version);
    this.published.set(tableId, version);
    this.timer ??= setInterval(() => this.refresh(), 200).unref();
    return true;
  }

  /** `minPinned(table)` is this process's lowest pinned version; raises or withdraws stale floors. */
  refresh(minPinned: (tableId: string) => number = this.pins): void {
    for (const [tableId, floor] of this.published) {
      const min = minPinned(tableId);
      if (min === Number.POSITIVE_INFINITY) {
        this.db.removeSync(floorKey(tableId, this.token));
        this.published.delete(tableId);
      } else if (min > floor) {
        this.db.putSync(floorKey(tableId, this.token), min);
        this.published.set(tableId, min);
      }
    }
    if (this.published.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Where `refresh` learns this process's pins (set by the store). */
  pins: (tableId: string) => number = () => Number.POSITIVE_INFINITY;

  /** The lowest floor other live processes published for a table, Infinity when none. */
  othersFloor(tableId: string): number {
    this.db.resetReadTxn();
    let min = Number.POSITIVE_INFINITY;
    for (const { key, value } of this.db.getRange({ start: `r/${tableId}/`, end: `r/${tableId}/\uffff` })) {
      const token = key.slice(key.lastIndexOf('/') + 1);
      if (token !== this.token && this.isLive(token)) min = Math.min(min, value as number);
    }
    return min;
  }

  /** Tokens of every live process registered on the store, this one included. */
  liveTokens(): Set<string> {
    this.db.resetReadTxn(); // a process registered a moment ago counts
    const out = new Set<string>();
    for (const { key } of this.db.getRange({ start: 'x/', end: 'x/\uffff' })) {
      const token = key.slice(2);
      if (this.isLive(token)) out.add(token);
    }
    return out;
  }

  /** Withdraws this process: its registration and floors. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const tableId of this.published.keys()) this.db.removeSync(floorKey(tableId, this.token));
    this.db.removeSync(procKey(this.token));
    await this.handle.release();
  }

  private isLive(token: string): boolean {
    if (token === this.token) return true;
    const proc = this.db.get(procKey(token)) as Registration | undefined;
    if (proc?.pid === undefined || !pidAlive(proc.pid)) return false;
    // the pid may have been given to a later process since; where its start cannot be read (not
    // Linux, or /proc hides other users' processes) it counts as live: its files are kept
    const now = proc.start === undefined ? undefined : processStart(proc.pid);
    return now === undefined || now === proc.start;
  }

  // registrations and floors of processes that died without closing (kill -9)
  private forgetDead(): void {
    const dead = new Set<string>();
    for (const { key } of this.db.getRange({ start: 'x/', end: 'x/\uffff' })) if (!this.isLive(key.slice(2))) dead.add(key.slice(2));
    for (const { key } of this.db.getRange({ start: 'r/', end: 'r/\uffff' })) {
      const token = key.slice(key.lastIndexOf('/') + 1);
      if (dead.has(token) || !this.db.get(procKey(token))) this.db.removeSync(key);
    }
    for (const token of dead) this.db.removeSync(procKey(token));
  }
}

/** A process's entry in the reader table; `start` is absent where the system does not tell it. */
interface Registration {
  readonly pid: number;
  readonly start?: string;
}

const procKey = (token: string) => `x/${token}`;
const floorKey = (tableId: string, token: string) => `r/${tableId}/${token}`;

// signal 0 checks existence; EPERM means it exists under another user
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// the boot and the start time (clock ticks since boot: field 22 of /proc/<pid>/stat) of a running
// process, which tell it apart from a later one given the same pid; undefined off Linux, or once it is gone
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // the command name (field 2) is in parentheses and may hold spaces: fields 3 on follow the last ')'
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start === undefined ? undefined : `${bootId}:${start}`;
  } catch {
    return undefined;
  }
}

const bootId = (() => {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim();
  } catch {
    return '';
  }
})();
