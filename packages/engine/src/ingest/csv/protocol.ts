// Messages between a CSV ingest (main thread) and its parsing workers. Nothing is transferred, so no
// ArrayBuffer is detached in either thread: blocks are copied, column buffers come in shared memory.

/** The target schema of the requests that follow, as the engine serializes it (file column order). */
export interface SchemaMessage {
  readonly schema: Uint8Array;
}

/** A block of whole CSV records (UTF-8, no header). */
export interface ParseRequest {
  readonly id: number;
  readonly bytes: Uint8Array;
}

/** The buffers of one converted column chunk (offset 0). */
export interface ColumnBuffers {
  readonly values: ArrayBufferView;
  readonly offsets?: Int32Array | BigInt64Array;
  readonly bitmap?: Uint8Array;
  readonly nullCount: number;
}

/**
 * The block's rows as columns (schema order); or the first bad record (`row` within the block,
 * `col` a schema index, or -1 for a record of the wrong width); or `split`: the quoting is not
 * well formed in the block (it may end inside a quoted field), so the rest of the file must be parsed
 * sequentially; or an unexpected failure.
 */
export type ParseReply =
  | { readonly id: number; readonly rows: number; readonly columns: readonly ColumnBuffers[] }
  | { readonly id: number; readonly split: true }
  | { readonly id: number; readonly bad: { readonly row: number; readonly col: number; readonly message: string; readonly value?: unknown } }
  | { readonly id: number; readonly failure: string };
