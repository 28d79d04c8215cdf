// The unit of work sent to an executor: one partition's columns, a filter, what to return.
import type { ColumnArrays } from '../expr/kernel.js';
import type { Sketch } from './sketch.js';
import type { TypedExpr } from '../expr/index.js';
import type { AggregateTask } from '../aggregate/spec.js';
import type { GroupCodes, PartialAggregate } from '../aggregate/partial.js';

/** A filter as sent to workers: plain data; `key` caches the compiled kernel per worker. */
export interface TaskFilter {
  readonly typed: TypedExpr;
  readonly key: string;
  readonly columns: readonly string[];
  /** The filter holds an exact geometry predicate: costly per candidate row (see read/execute.ts `run`). */
  readonly exact?: boolean;
}

/** A column chunk given to a scan: kernel arrays plus what gather needs. */
export interface TaskColumn extends ColumnArrays {
  readonly nullCount: number;
  /** Byte width of a fixed-width value, 0 for bit-packed bool, -1 for variable-length (utf8/binary). */
  readonly width: number;
  /** The scan may overwrite the buffers (a private read-through chunk): selected rows are compacted in place. */
  readonly owned?: boolean;
  /** A float64 chunk's sketch (exec/sketch.ts), shared by every scan of the chunk; absent on row ranges and private chunks. */
  readonly sketch?: Sketch;
}

/**
 * Scan one partition: count matching rows, return the projected columns of matching rows, or
 * aggregate them (`aggregate`: partial aggregates per group, see aggregate/partial.ts).
 */
export interface ScanTask {
  readonly mode: 'count' | 'select' | 'aggregate';
  readonly length: number;
  readonly filter: TaskFilter | null;
  readonly columns: Readonly<Record<string, TaskColumn>>;
  /** Output column names (select mode). */
  readonly project: readonly string[];
  /** Deleted rows (bit set = skip the row), or absent when the partition has none. */
  readonly deleted?: Uint8Array | null;
  /** The same deleted rows as ascending positions, when known (a count subtracts their matches). */
  readonly deletedRows?: Int32Array | null;
  /** Count mode: the filter's columns at `deletedRows` (gathered once per deletion vector), else gathered per scan. */
  readonly deletedColumns?: Readonly<Record<string, TaskColumn>> | null;
  /** Also return the positions of the matching rows (select mode; deletes and replaces need them). */
  readonly withRows?: boolean;
  /** With `withRows`: also return them encoded as a deletion vector (mvcc/positions.ts), work a delete's commit then skips. */
  readonly encodeRows?: boolean;
  /** Aggregate mode: the group key and fields. */
  readonly aggregate?: AggregateTask;
  /** Aggregate mode: cached group codes of the key (see aggregate/partial.ts), if any. */
  readonly codes?: GroupCodes;
  /**
   * The partition's rows are ascending by each of these columns (nulls and NaN last): its sort key,
   * or a column found ascending in its cached chunk. The scan reads only the rows the filter can
   * match by all of them (exec/narrow.ts).
   */
  readonly sortedBy?: readonly string[];
  /** The row range of a `sortedBy` partition as the caller already found it (exec/narrow.ts `sortedRange`; null: every row). */
  readonly rowRange?: readonly [number, number] | null;
}

/** One output column of a select; buffers are SharedArrayBuffer-backed (or the input's own). */
export interface ResultColumn {
  readonly values: ColumnArrays['values'];
  readonly validity: Uint8Array | null;
  readonly offsets: Int32Array | BigInt64Array | null;
  readonly nullCount: number;
}

/** What a scan returns: the match count, and in select mode the gathered columns. */
export interface ScanResult {
  readonly count: number;
  readonly columns?: readonly ResultColumn[];
  /** Positions of the matching rows, ascending, when the task asked `withRows`. */
  readonly rows?: Int32Array;
  /** `rows` as `encodePositions` encodes them, when the task asked `encodeRows`. */
  readonly encoded?: Uint8Array;
  /** Aggregate mode: the partition's partial aggregates. */
  readonly partial?: PartialAggregate;
  /** Aggregate mode: group codes computed for the key (codes in a SharedArrayBuffer), for the cache. */
  readonly codes?: GroupCodes;
  /** Rows of the partition the kernel ran over (all but those a sorted partition rules out). */
  readonly scanned?: number;
}
