// Messages between the ingest (main thread) and its Parquet worker. Bytes are always copied by
// structured clone, never transferred, so no ArrayBuffer is detached in the main thread.

/** The worker's start data: the file's size (bytes are fetched from the main thread on demand). */
export interface ParquetWorkerData {
  readonly size: number;
}

/** A row group as the footer describes it. */
export interface RowGroupInfo {
  readonly rows: number;
  /** Compressed bytes of the row group's column chunks. */
  readonly bytes: number;
}

/** Main thread → worker. */
export type ToWorker =
  | { readonly kind: 'range'; readonly req: number; readonly bytes: Uint8Array }
  | { readonly kind: 'range-error'; readonly req: number; readonly message: string }
  | { readonly kind: 'read'; readonly group: number }
  | { readonly kind: 'close' };

/** Worker → main thread. */
export type FromWorker =
  | { readonly kind: 'range'; readonly req: number; readonly start: number; readonly end: number }
  | { readonly kind: 'meta'; readonly schema: Uint8Array; readonly groups: readonly RowGroupInfo[]; readonly kv: readonly (readonly [string, string])[] }
  | { readonly kind: 'group'; readonly group: number; readonly ipc: Uint8Array }
  | { readonly kind: 'error'; readonly message: string };
