// The table interface shared by the embedded engine and the HTTP client: code written for one runs on the other.
import type { Readable } from 'node:stream';
import type { RecordBatch, Schema, Table as ArrowTable } from 'apache-arrow';
import type { AggregateOptions } from './aggregate/spec.js';
import type { Row } from './cursor.js';
import type { InsertInput } from './data/convert.js';
import type { IngestOptions, IngestResult } from './ingest/ingest.js';
import type { TransactionState, MatchOptions } from './mvcc/transaction.js';
import type { RawEntry } from './raw/entry.js';
import type { ListOptions } from './raw/list.js';
import type { RawMetaPatch } from './raw/validate.js';
import type { UploadBody, UploadOptions } from './raw/upload.js';
import type { TableStats } from './read/stats.js';
import type { SelectOptions } from './read/plan.js';

/** A table: `store.table(name)` in the engine, `client.table(datasetUuid)` over HTTP. */
export interface TableApi {
  readonly raw: RawFilesApi;
  create(schema: Schema): Promise<void>;
  /** The schema, or undefined when the table does not exist. */
  schema(): Promise<Schema | undefined>;
  alter(schema: Schema): Promise<void>;
  drop(): Promise<void>;
  truncate(): Promise<void>;
  stats(): Promise<TableStats>;
  insert(data: InsertInput): Promise<void>;
  select(filter?: string, options?: SelectOptions): CursorApi;
  aggregate(groupBy: string, options?: AggregateOptions): Promise<ArrowTable>;
  aggregatePartials(groupBy: string, options?: AggregateOptions): Promise<ArrowTable>;
  transaction<R>(fn: (tx: TransactionApi) => Promise<R>): Promise<R>;
  begin(): Promise<TransactionApi>;
}

/** A lazy select; nothing runs until it is iterated. */
export interface CursorApi {
  batches(): AsyncIterable<RecordBatch>;
  rows(): AsyncIterable<Row>;
  pages(size: number): AsyncIterable<Row[]>;
  dataframes(): AsyncIterable<ArrowTable>;
  all(): Promise<Row[]>;
  count(): Promise<number>;
}

/** An explicit transaction (see the engine's `Transaction` for the semantics). */
export interface TransactionApi {
  readonly state: TransactionState;
  insert(data: InsertInput): Promise<void>;
  delete(filter: string, options?: MatchOptions): Promise<number>;
  replace(filter: string, options?: MatchOptions): AsyncIterable<Row>;
  select(filter?: string, options?: SelectOptions): CursorApi;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** Files beside a table. */
export interface RawFilesApi {
  upload(name: string, body: UploadBody, options?: UploadOptions): Promise<string>;
  updateMeta(idOrName: string, patch: RawMetaPatch): Promise<RawEntry>;
  list(filter?: string, options?: ListOptions): Promise<RawEntry[]>;
  download(idOrName: string): Promise<Readable>;
  delete(idOrName: string): Promise<void>;
  ingest(idOrName: string, options?: IngestOptions): Promise<IngestResult>;
}
