// @halocline/engine: the embeddable Arrow-native tabular engine.
export { openStore, Store, type StoreOptions } from './store.js';
export { Table, type InsertData } from './table.js';
export { Cursor, type Row } from './cursor.js';
export type { SelectOptions } from './read/plan.js';
export type { ColumnStats, TableStats } from './read/stats.js';
export type { EngineOptions } from './context.js';
export { HaloclineError, isHaloclineError, type ErrorCode, type ErrorContext } from './errors.js';
