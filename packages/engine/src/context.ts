// What tables, cursors and writers share of an open store.
import type { Schema } from 'apache-arrow';
import type { Executor } from './exec/executor.js';
import type { ReadActivity } from './read/activity.js';
import type { Snapshots } from './read/snapshots.js';
import type { BlobStore } from './storage/blobstore.js';
import type { ColumnCache } from './storage/cache.js';
import type { MetaStore } from './storage/metastore.js';
import type { TableRecord } from './storage/records.js';
import type { PartWriter } from './write/part-writer.js';

/** Tuning knobs, all with defaults (see openStore). */
export interface EngineOptions {
  /** Target rows per partition; inserts are cut to this and compaction merges up to it. */
  readonly partitionRows: number;
  /** Partitions with fewer rows scan inline on the calling thread instead of in the pool. */
  readonly inlineRows: number;
  /** Merge a run of this many contiguous small partitions. */
  readonly compactRun: number;
  /** Bytes of decoded columns kept in memory. */
  readonly cacheBytes: number;
  /**
   * Rows a transaction's inserts gather before it starts writing them (on the part writer thread,
   * while the caller goes on), so that commit waits only for the tail; see `mvcc/tx-state.ts`.
   * Default 256k, a quarter of the default partition: smaller spills of a replace loop were written
   * while its own scans held the cores (the part writer runs at the lowest priority), then mostly
   * taken back and written again at commit, and each left a small delta for compaction to merge.
   */
  readonly spillRows: number;
}

/** Shared state of an open store, handed to tables and cursors. */
export interface StoreContext {
  readonly meta: MetaStore;
  readonly blobs: BlobStore;
  readonly cache: ColumnCache;
  readonly snapshots: Snapshots;
  /** Scan tasks in flight: background compaction waits for a pause in them (bounded). */
  readonly reads: ReadActivity;
  /** The worker pool, or null when the store runs with `workers: 0`. */
  readonly pool: Executor | null;
  readonly inline: Executor;
  /** The low-priority thread appends and compaction write partition files on; absent with `workers: 0`. */
  readonly partWriter?: PartWriter | null;
  readonly options: EngineOptions;
  /**
   * This process's token in the store's reader table. It is part of every file name the process
   * writes, so another process opening the store does not take a file in progress for an orphan.
   */
  readonly token: string;
  /** The decoded schema of a table record (cached). */
  schemaOf(record: TableRecord): Schema;
  /**
   * Pins `version` of table `tableId` for this process and publishes the pin to other processes
   * sharing the store; call the returned function exactly once when done reading.
   */
  pin(tableId: string, version: number): () => void;
  /** Throws `Closed` once the store is closed. */
  checkOpen(): void;
  /**
   * Runs work after the caller returns (compaction, file removal); close() waits for it. A failure
   * is reported (`report`) and the work is retried by its next trigger.
   */
  background(name: string, work: () => Promise<void>): void;
  /** Reports a failure of background work `task` (the store's `onBackgroundError`). */
  report(error: unknown, task: string): void;
  /**
   * Partition files this process found damaged (`Corrupt`) in background work: compaction leaves
   * them as they are instead of failing on them again at every trigger (`write/compact.ts`).
   */
  readonly damaged: Set<string>;
  /** Deletes (in the background) the files of retired partitions no reader in any process can see any more. */
  collectGarbage(): void;
}
