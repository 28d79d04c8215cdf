// Messages between the ingest (main thread) and its Parquet workers. Bytes are always copied by
// structured clone, never transferred, so no ArrayBuffer is detached in the main thread. A worker
// serves one file at a time (a session); it may serve later files after `open` again.
import type { ErrorContext } from '../../errors.js';
import type { Piece, PartTarget } from './place.js';

/** A row group as the footer describes it. */
export interface RowGroupInfo {
  readonly rows: number;
  /** Compressed bytes of the row group's column chunks. */
  readonly bytes: number;
}

/** Main thread → worker. */
export type ToWorker =
  | { readonly kind: 'open'; readonly session: number; readonly size: number }
  /** The bytes of range `req`, in shared memory the worker copies them out of at once. */
  | { readonly kind: 'range'; readonly req: number; readonly bytes: Uint8Array }
  | { readonly kind: 'range-error'; readonly req: number; readonly message: string }
  /** The table the rows go into: its schema (IPC), file → table column names, the table's name. */
  | { readonly kind: 'target'; readonly session: number; readonly schema: Uint8Array; readonly rename: readonly (readonly [string, string])[]; readonly table: string }
  /** Shared buffers of pieces this worker sent, copied by the main thread: the worker may reuse them. */
  | { readonly kind: 'recycle'; readonly buffers: readonly SharedArrayBuffer[] }
  /** Decode, conform (file rows from `firstRow`) and place row group `group` into `targets`. */
  | { readonly kind: 'place'; readonly session: number; readonly group: number; readonly firstRow: number; readonly targets: readonly PartTarget[] };

/** Worker → main thread. */
export type FromWorker =
  | { readonly kind: 'range'; readonly req: number; readonly start: number; readonly end: number }
  /** The bytes of range `req` are copied: the main thread may reuse their shared memory. */
  | { readonly kind: 'range-copied'; readonly req: number }
  | { readonly kind: 'meta'; readonly session: number; readonly schema: Uint8Array; readonly groups: readonly RowGroupInfo[]; readonly kv: readonly (readonly [string, string])[] }
  | { readonly kind: 'placed'; readonly session: number; readonly group: number; readonly pieces: readonly Piece[] }
  /** A row of the group does not convert: the engine error, to be raised when the group's turn comes. */
  | { readonly kind: 'invalid'; readonly session: number; readonly group: number; readonly code: string; readonly message: string; readonly context: ErrorContext }
  | { readonly kind: 'error'; readonly session: number; readonly message: string };
