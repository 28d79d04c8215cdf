// @halocline/engine: the embeddable Arrow-native tabular engine.
export { openStore, Store, type StoreOptions } from './store.js';
export { Table, type InsertData } from './table.js';
export { Cursor, type Row } from './cursor.js';
export { Transaction, type TransactionState, type MatchOptions } from './mvcc/transaction.js';
export type { SelectOptions } from './read/plan.js';
export type { AggregateOptions } from './aggregate/spec.js';
export type { GeoJsonFeature } from './geo/export.js';
export type { ColumnStats, TableStats } from './read/stats.js';
export type { EngineOptions } from './context.js';
export { HaloclineError, isHaloclineError, type ErrorCode, type ErrorContext } from './errors.js';
export type { RawFiles } from './raw/raw.js';
export type { RawEntry } from './raw/entry.js';
export type { RawMetaPatch } from './raw/validate.js';
export type { UploadBody, UploadOptions } from './raw/upload.js';
export type { ListOptions } from './raw/list.js';
export type { IngestMode, IngestOptions, IngestProgress, IngestResult } from './ingest/ingest.js';
export type { FileFormat } from './ingest/format.js';
