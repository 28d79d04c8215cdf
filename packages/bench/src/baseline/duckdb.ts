// The DuckDB baseline: an in-process in-memory database loaded with the same Arrow batches as the engine.
import { DuckDBInstance, DuckDBTimestampValue, type DuckDBConnection } from '@duckdb/node-api';
import type { RecordBatch, Table } from 'apache-arrow';
import { obsSchema } from '../generate.js';
import { appendBatches } from './duckdb-append.js';
import { resultToArrow } from './duckdb-arrow.js';

/** Column definitions of the `obs` table, in {@link obsSchema} order. */
export const OBS_COLUMNS =
  'id BIGINT, time TIMESTAMP, lat DOUBLE, lon DOUBLE, depth DOUBLE, temp DOUBLE, salinity DOUBLE, platform VARCHAR';

/** The baseline as the workloads see it. */
export interface DuckDBBaseline {
  readonly connection: DuckDBConnection;
  /** Creates `table` with the observation columns. */
  createObsTable(table: string): Promise<void>;
  /** Appends the batches through one appender (data chunks, flushed and closed); returns the row count. */
  append(table: string, batches: Iterable<RecordBatch>): Promise<number>;
  /**
   * A second connection appending batches to `table`, each call through an appender of its own
   * (flushed: a commit), for a writer running while this connection queries (an appender and a
   * query on one connection deadlock).
   */
  writer(table: string): Promise<DuckDBWriter>;
  /** Appends row objects (obs columns; time as Date) value by value through one appender. */
  appendRows(table: string, rows: readonly Record<string, unknown>[]): Promise<number>;
  /** The single number a `SELECT count(*) ...` returns. */
  count(sql: string): Promise<number>;
  /** The full result materialised as an Arrow Table (see {@link resultToArrow}). */
  selectArrow(sql: string): Promise<Table>;
  close(): void;
}

/** Appends on a connection of its own (see {@link DuckDBBaseline.writer}). */
export interface DuckDBWriter {
  /** Appends the batches through a new appender, flushed and closed; returns the row count. */
  append(batches: Iterable<RecordBatch>): Promise<number>;
  close(): void;
}

/**
 * An in-memory DuckDB with `threads` worker threads.
 * @example
 * const db = await openDuckDB(2);
 * await db.createObsTable('obs');
 * await db.append('obs', generateBatches({ rows: 1e6 }));
 */
export async function openDuckDB(threads: number): Promise<DuckDBBaseline> {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const connection = await instance.connect();
  return {
    connection,
    async createObsTable(table) {
      await connection.run(`CREATE OR REPLACE TABLE ${table}(${OBS_COLUMNS})`);
    },
    append: (table, batches) => appendOn(connection, table, batches),
    async writer(table) {
      const own = await instance.connect();
      return { append: (batches) => appendOn(own, table, batches), close: () => own.closeSync() };
    },
    async appendRows(table, rows) {
      const appender = await connection.createAppender(table);
      try {
        for (const r of rows) {
          appender.appendBigInt(r.id as bigint);
          appender.appendTimestamp(new DuckDBTimestampValue(BigInt((r.time as Date).getTime()) * 1000n));
          appender.appendDouble(r.lat as number);
          appender.appendDouble(r.lon as number);
          appender.appendDouble(r.depth as number);
          appender.appendDouble(r.temp as number);
          appender.appendDouble(r.salinity as number);
          appender.appendVarchar(r.platform as string);
          appender.endRow();
        }
        appender.flushSync();
        return rows.length;
      } finally {
        appender.closeSync();
      }
    },
    async count(sql) {
      const reader = await connection.runAndReadAll(sql);
      return Number(reader.getRows()[0]?.[0]);
    },
    async selectArrow(sql) {
      return resultToArrow(await connection.run(sql));
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

// the batches appended to `table` through a new appender on `connection`, flushed and closed
async function appendOn(connection: DuckDBConnection, table: string, batches: Iterable<RecordBatch>): Promise<number> {
  const appender = await connection.createAppender(table);
  try {
    return appendBatches(appender, obsSchema, batches);
  } finally {
    appender.closeSync();
  }
}
