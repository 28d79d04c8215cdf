// A table handle: schema, inserts and selects over one named table of a store.
import { randomBytes } from 'node:crypto';
import type { Schema, Table as ArrowTable } from 'apache-arrow';
import { aggregateSnapshot } from './aggregate/execute.js';
import { checkFinalNames, finalTable, partialTable } from './aggregate/merge.js';
import type { AggregateOptions } from './aggregate/spec.js';
import type { StoreContext } from './context.js';
import type { TableApi } from './api.js';
import { Cursor } from './cursor.js';
import { type InsertInput, toRecordBatches } from './data/convert.js';
import { HaloclineError, isHaloclineError } from './errors.js';
import type { SelectOptions } from './read/plan.js';
import { openSnapshot } from './read/snapshot.js';
import { type TableStats, tableStats } from './read/stats.js';
import { encodeSchema } from './schema/serialize.js';
import { RawFiles } from './raw/raw.js';
import { Transaction } from './mvcc/transaction.js';
import { retireParts } from './mvcc/retire.js';
import { normalizeSchema } from './schema/validate.js';
import { type PartRecord, type TableRecord, partPrefix, tableKey } from './storage/records.js';
import { commit } from './write/commit.js';
import { alterTable } from './write/alter.js';
import { scheduleCompaction } from './write/compact.js';
import { HELPER_ROWS, writeParts } from './write/partition.js';
import { MIN_POOLED, zeroed } from './write/shared-pool.js';

/** Arrays of at least this many row objects convert into pooled memory (a float64 column of them fills a pooled buffer). */
const POOLED_ROWS = MIN_POOLED / 8;

/** Attempts of a truncate whose partitions another commit removed meanwhile. */
const TRUNCATE_ATTEMPTS = 8;

/** What `insert` accepts: one row, rows, a record batch or an arrow Table. */
export type InsertData = InsertInput;

/**
 * A named table. Creating a handle does no I/O; every method reads the committed state.
 * @example
 * const t = store.table('ctd'); await t.create(schema); await t.insert(rows)
 */
export class Table implements TableApi {
  constructor(
    private readonly ctx: StoreContext,
    readonly name: string,
  ) {}

  /** Files kept beside this table (upload, list, download, ingest); they survive `drop()`. */
  get raw(): RawFiles {
    return new RawFiles(this.ctx, this.name);
  }

  /** Sets the schema; `FileAlreadyExists` when the table already has one. */
  async create(schema: Schema): Promise<void> {
    this.ctx.checkOpen();
    const normalized = normalizeSchema(schema, { table: this.name });
    const record: TableRecord = {
      id: randomBytes(8).toString('hex'),
      name: this.name,
      schema: Buffer.from(encodeSchema(normalized)).toString('base64'),
      version: 0,
      nextSeq: 0,
      created: new Date().toISOString(),
    };
    await this.ctx.meta.write((tx) => {
      if (tx.get(tableKey(this.name))) {
        throw new HaloclineError('FileAlreadyExists', `table "${this.name}" already has a schema`, { table: this.name });
      }
      tx.put(tableKey(this.name), record);
    });
  }

  /** The schema, or undefined when the table does not exist. */
  async schema(): Promise<Schema | undefined> {
    this.ctx.checkOpen();
    const record = this.ctx.meta.get<TableRecord>(tableKey(this.name));
    return record ? this.ctx.schemaOf(record) : undefined;
  }

  /** Validates and appends rows atomically; committed and durable when the promise resolves. */
  async insert(data: InsertData): Promise<void> {
    const started = performance.now();
    this.ctx.checkOpen();
    const record = this.record();
    const schema = this.ctx.schemaOf(record);
    // many row objects convert into the part writer's pooled shared memory, which its thread reads as
    // it is (no copy) and which goes back to the pool once the rows are written: fresh buffers each
    // insert (V8 counts them as external memory) started a full GC of the caller's heap mid-insert
    const lease = Array.isArray(data) && data.length >= POOLED_ROWS ? this.ctx.partWriter?.buffers.lease() : undefined;
    try {
      const batches = toRecordBatches(schema, data, { table: this.name }, lease && zeroed(lease.alloc));
      const rows = batches.reduce((n, b) => n + b.numRows, 0);
      if (rows === 0) return;
      // while the part writer merges (compaction: a merge takes it for hundreds of ms, a large tier
      // merge for seconds) an insert does not queue behind the merge: a small one is written on this
      // thread, a large one on a scan worker
      const merging = this.ctx.partWriter?.busyMerging === true;
      const large = rows >= HELPER_ROWS;
      const written = await writeParts(this.ctx, record.id, schema, batches, !merging || large, undefined, merging && large);
      await commit(this.ctx, this.name, record.id, { add: written, remove: [], schemaVersion: record.schemaVersion ?? 0, trace: { kind: 'insert', started } });
    } finally {
      lease?.release();
    }
    scheduleCompaction(this.ctx, this.name, record.id);
  }

  /**
   * Runs `fn` in a transaction: commits when it resolves (resolving with its result), rolls back
   * and rethrows when it throws. A commit that loses to a concurrent one rejects with `Conflict`.
   * When `fn` ended the transaction itself (`tx.commit()` or `tx.rollback()`), that stands: the call
   * resolves with its result.
   * @example
   * await t.transaction(async (tx) => { for await (const r of tx.replace('id == 3')) await tx.insert({ ...r, temp: 4 }) })
   */
  async transaction<R>(fn: (tx: Transaction) => Promise<R>): Promise<R> {
    const tx = await this.begin();
    let result: R;
    try {
      result = await fn(tx);
    } catch (e) {
      if (tx.state === 'active') await tx.rollback();
      throw e;
    }
    if (tx.state === 'active') await tx.commit();
    return result;
  }

  /** Starts an explicit transaction over the table as committed now; finish it with commit or rollback. */
  async begin(): Promise<Transaction> {
    return Transaction.begin(this.ctx, this.name);
  }

  /** A lazy cursor over the rows matching `filter` (all rows without one). */
  select(filter?: string, options: SelectOptions = {}): Cursor {
    return new Cursor(this.ctx, this.name, filter, options);
  }

  /**
   * Groups the rows (those matching `query` when given) by `groupBy` and aggregates them: an Arrow
   * Table with one row per group, the key first (named as written), one column per aggregated field
   * (`aggr`, else the columns' `aggr` metadata), and `*`, the row count. Keys: any expression (a
   * column, a comparison, ...), `bucket(field, b1, ..., bn)` / `buckets(...)` (a row joins every
   * bucket whose bound is >= its value), `h3(lat, lon, res)`, `h3(geometry, res)`, `h3(res)` (cell id
   * strings). Groups are sorted by key, null last. See docs/architecture.md, "Aggregation".
   * @example
   * await t.aggregate('platform', { aggr: { temp: 'avg' }, query: 'depth < 100' })
   */
  async aggregate(groupBy: string, options: AggregateOptions = {}): Promise<ArrowTable> {
    const snap = openSnapshot(this.ctx, this.name);
    try {
      const { merged, task, keyType } = await aggregateSnapshot(this.ctx, snap, groupBy, options, this.name);
      checkFinalNames(groupBy.trim(), task.fields.map((f) => f.name), this.name);
      return finalTable(merged, task.fields, groupBy.trim(), keyType);
    } finally {
      snap.release();
    }
  }

  /**
   * The same groups as partial aggregates, in the wire protocol's shape: the key in a column named
   * "", then `<f>_sum`, `<f>_count`, `<f>_min`, `<f>_max` per field, and `*` (clients merge by key,
   * mean = sum / count). The server answers `/sdk/aggregate` with it.
   */
  async aggregatePartials(groupBy: string, options: AggregateOptions = {}): Promise<ArrowTable> {
    const snap = openSnapshot(this.ctx, this.name);
    try {
      const { merged, task, keyType } = await aggregateSnapshot(this.ctx, snap, groupBy, options, this.name);
      return partialTable(merged, task.fields, keyType);
    } finally {
      snap.release();
    }
  }

  /**
   * Replaces the schema: columns renamed through `prev_name` metadata, types changed (values
   * converted), nullable columns added, metadata changed. All data is re-written; the old data is
   * removed only if every value converts, otherwise the table is exactly as before.
   */
  async alter(schema: Schema): Promise<void> {
    this.ctx.checkOpen();
    await alterTable(this.ctx, this.name, schema);
  }

  /** Row count, bytes, and per column type, null count, min and max (from the zone maps, no scan). */
  async stats(): Promise<TableStats> {
    const snap = openSnapshot(this.ctx, this.name);
    try {
      return tableStats(snap);
    } finally {
      snap.release();
    }
  }

  /**
   * Removes every row in one commit; the schema stays. When another commit removed partitions
   * meanwhile (the background compaction of earlier inserts, an alter), it starts again from the
   * table as it is then.
   */
  async truncate(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const snap = openSnapshot(this.ctx, this.name);
      try {
        if (snap.parts.length === 0) return;
        await commit(this.ctx, this.name, snap.record.id, { add: [], remove: snap.parts, schemaVersion: snap.record.schemaVersion ?? 0, trace: { kind: 'truncate', started } });
        return;
      } catch (e) {
        if (!isHaloclineError(e, 'Conflict') || attempt === TRUNCATE_ATTEMPTS) throw e;
      } finally {
        snap.release();
      }
    }
  }

  /** Removes the schema and all data; `NotFound` when the table does not exist. */
  async drop(): Promise<void> {
    this.ctx.checkOpen();
    await this.ctx.meta.write((tx) => {
      const record = tx.get<TableRecord>(tableKey(this.name));
      if (!record) throw new HaloclineError('NotFound', `table "${this.name}" does not exist`, { table: this.name });
      retireParts(tx, record.id, tx.range<PartRecord>(partPrefix(record.id)).map(([, p]) => p), Number.POSITIVE_INFINITY);
      tx.remove(tableKey(this.name));
    });
    this.ctx.collectGarbage();
  }

  private record(): TableRecord {
    const record = this.ctx.meta.get<TableRecord>(tableKey(this.name));
    if (!record) throw new HaloclineError('NotFound', `table "${this.name}" does not exist; create it with a schema first`, { table: this.name });
    return record;
  }
}
