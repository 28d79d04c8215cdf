// What every file reader offers ingest: column names, the file's own schema, and batches in file order.
import type { Data, DataType, RecordBatch, Schema } from 'apache-arrow';
import type { ZoneStats } from '../expr/kernel.js';
import type { LaidOutPart } from '../write/laid-out.js';

/** One batch of file rows; `bytes` is how far into the file the reader has got. */
export interface SourceBatch {
  readonly batch: RecordBatch;
  readonly bytes: number;
}

/** A file being ingested. Batches carry the file's column names; ingest renames and conforms them. */
export interface FileSource {
  /** The column names in file order (reads only a header or footer). */
  names(): Promise<string[]>;
  /**
   * The file's schema: the types it declares (Parquet, FlatGeobuf) or infers (CSV, from a sample),
   * `class: geometry` on geometry columns.
   */
  schema(): Promise<Schema>;
  /**
   * Present when `schema()` infers from a sample: the types inferred from every row. Ingest asks
   * for it when a value beyond the sample does not convert into a created table's types.
   */
  wholeSchema?(): Promise<Schema>;
  /**
   * The rows, batch by batch, when the reader does not offer `partitions`. `types` (by file column
   * name) are the types text columns parse into (CSV); typed formats yield their own types and ignore it.
   */
  batches?(types: ReadonlyMap<string, DataType>): AsyncIterable<SourceBatch>;
  /**
   * Present when the reader does the rest itself (then it has no `batches`): the rows conformed to `schema` (file column names
   * mapped by `rename`) and gathered into partitions of `partitionRows` rows (the last may be
   * shorter), each column with its zone map. Yields progress as rows arrive; `filled` when a
   * partition is complete. Errors are the ones `conformFileBatch` raises, in file order.
   * `laidOut` opens a partition's file as soon as its buffers exist, so the reader can have its
   * fixed-width columns written as their rows land (`filled` then comes with that `file`).
   */
  partitions?(schema: Schema, rename: ReadonlyMap<string, string>, partitionRows: number, table: string, laidOut?: OpenLaidOut): AsyncIterable<FilledProgress>;
  /** Releases threads and handles; safe to call twice. */
  close(): Promise<void>;
}

/** A column of a filled partition: one offset-0 chunk and its zone map. */
export interface FilledColumn {
  readonly data: Data;
  readonly zone: ZoneStats;
  /** The CRC-32 of the value buffer's bytes (rows × value width), when the filler knows it. */
  readonly crc?: number;
}

/** Rows converted so far, file bytes read so far, and a partition when one is complete. */
export interface FilledProgress {
  readonly rows: number;
  readonly bytes: number;
  readonly filled?: readonly FilledColumn[];
  /** The partition's file, its fixed-width columns already written, when `laidOut` opened one. */
  readonly file?: LaidOutPart;
}

/** Opens the file of a partition of `rows` rows; `placed` are its fixed-width value buffers (else null). */
export type OpenLaidOut = (rows: number, placed: readonly (Uint8Array | null)[]) => LaidOutPart;
