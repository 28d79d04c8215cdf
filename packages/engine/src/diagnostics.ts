// Diagnostics channels (node:diagnostics_channel): events about the store's work, made and published
// only while something subscribes, so a store nobody watches pays one `hasSubscribers` test.
import { channel } from 'node:diagnostics_channel';

/** What made a commit. */
export type CommitKind = 'transaction' | 'insert' | 'ingest' | 'compaction' | 'alter' | 'truncate' | 'commit';

/**
 * A commit that made a new version of a table, published on `COMMIT_CHANNEL` once the version is
 * durable (an ingest that creates or recreates its table too: version 1). Times are the committing
 * thread's `performance.now()`, in ms: `started` when the work began (`Transaction.commit()`,
 * `Table.insert()`, the ingest, the merge, the alter or the truncate was called), `written` when its
 * new partition files were durable, `committed` when its version was. A transaction's own work before
 * `commit()` (its reads, a replace's match scans) is not in it.
 */
export interface CommitEvent {
  readonly table: string;
  readonly kind: CommitKind;
  readonly version: number;
  /** New partition files, and the rows in them. */
  readonly files: number;
  readonly rows: number;
  /** Rows the commit deleted from committed partitions. */
  readonly deleted: number;
  /** Partitions the commit retired (a merge's inputs, a rewrite, an alter's or a truncate's). */
  readonly removed: number;
  readonly started: number;
  readonly written: number;
  readonly committed: number;
}

/**
 * The channel of `CommitEvent`s.
 * @example
 * import { subscribe } from 'node:diagnostics_channel';
 * subscribe(COMMIT_CHANNEL, (e) => { const c = e as CommitEvent; console.log(c.kind, c.rows, c.written - c.started, c.committed - c.written); });
 */
export const COMMIT_CHANNEL = 'halocline:commit';

const commits = channel(COMMIT_CHANNEL);

/** Publishes the event `make` builds, when something subscribes. */
export function publishCommit(make: () => CommitEvent): void {
  if (commits.hasSubscribers) commits.publish(make());
}
