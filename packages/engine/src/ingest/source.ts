// What every file reader offers ingest: column names, the file's own schema, and batches in file order.
import type { DataType, RecordBatch, Schema } from 'apache-arrow';

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
   * The rows, batch by batch. `types` (by file column name) are the types text columns parse into
   * (CSV); typed formats yield their own types and ignore it.
   */
  batches(types: ReadonlyMap<string, DataType>): AsyncIterable<SourceBatch>;
  /** Releases threads and handles; safe to call twice. */
  close(): Promise<void>;
}
