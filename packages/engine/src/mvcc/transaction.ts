// Transactions: snapshot-isolated inserts, deletes, replaces and selects, committed all at once or not at all.
import type { RecordBatch, Table as ArrowTable } from 'apache-arrow';
import { aggregateSnapshot } from '../aggregate/execute.js';
import { partialTable } from '../aggregate/merge.js';
import type { AggregateOptions } from '../aggregate/spec.js';
import type { TransactionApi } from '../api.js';
import type { StoreContext } from '../context.js';
import { Cursor, type Row } from '../cursor.js';
import { type InsertInput, toRecordBatches } from '../data/convert.js';
import { batchToRows } from '../data/rows.js';
import { HaloclineError } from '../errors.js';
import { type PartMatches, scanMatches } from '../read/execute.js';
import { plan, type SelectOptions } from '../read/plan.js';
import { openSnapshot } from '../read/snapshot.js';
import { commit } from '../write/commit.js';
import { scheduleCompaction } from '../write/compact.js';
import { writeParts } from '../write/partition.js';
import { TxState } from './tx-state.js';

/** Where a transaction is in its life. */
export type TransactionState = 'active' | 'committing' | 'committed' | 'rolled back';

/** Options of delete and replace: bind variables of the filter. */
export interface MatchOptions {
  readonly vars?: SelectOptions['vars'];
}

/**
 * A transaction on one table. It reads the table as committed when it began plus its own writes;
 * nothing of it is visible to others until `commit()`, which applies all of it in one version or
 * fails with `Conflict` (another transaction deleted or replaced the same rows first) applying
 * nothing. Methods may be called from independent async calls; `rollback()` may come from outside
 * (an idle timeout) at any time before commit.
 * @example
 * const tx = await t.begin(); await tx.insert(rows); const n = await tx.delete('depth < 0'); await tx.commit()
 */
export class Transaction implements TransactionApi {
  private status: TransactionState = 'active';
  private readonly ops = new Set<Promise<unknown>>();
  private readers = 0;

  /** @internal use `Table.begin()` or `Table.transaction()` */
  constructor(
    private readonly ctx: StoreContext,
    readonly table: string,
    private readonly data: TxState,
  ) {}

  /** @internal */
  static begin(ctx: StoreContext, table: string): Transaction {
    return new Transaction(ctx, table, new TxState(ctx, openSnapshot(ctx, table)));
  }

  /** Where the transaction is: active, committing, committed or rolled back. */
  get state(): TransactionState {
    return this.status;
  }

  /** Validates rows (same inputs as `Table.insert`) and adds them to the transaction. */
  async insert(data: InsertInput): Promise<void> {
    this.check();
    const batches = toRecordBatches(this.data.base.schema, data, { table: this.table });
    this.data.add(batches.filter((b) => b.numRows > 0));
  }

  /** Deletes the rows matching `filter` (as the transaction sees them); resolves with how many. */
  async delete(filter: string, options: MatchOptions = {}): Promise<number> {
    return this.op(async () => {
      const matches = await this.match(filter, options, false);
      this.checkNotFinished();
      return matches.reduce((n, m) => n + this.data.markDeleted(m.part, m.rows), 0);
    });
  }

  /**
   * Yields each row matching `filter` once and deletes it as it is yielded; the caller inserts a
   * new version, another row, or nothing. Matches are computed before the first row is yielded, so
   * rows inserted during the iteration are not matched. Rows this transaction inserted earlier
   * match like any other row.
   */
  async *replace(filter: string, options: MatchOptions = {}): AsyncGenerator<Row> {
    const matches = await this.op(() => this.match(filter, options, true));
    for (const m of matches) {
      const rows = batchToRows(m.batch!);
      for (let k = 0; k < rows.length; k++) {
        this.check();
        const row = m.rows[k]!;
        if (this.data.isDeleted(m.part, row)) continue; // deleted meanwhile by this transaction
        this.data.markDeleted(m.part, [row]);
        yield rows[k]!;
      }
    }
  }

  /**
   * `replace` as Arrow record batches (the wire shape of `/sdk/replace`): the same matches, each
   * deleted as its batch is yielded; rows this transaction already deleted are left out.
   */
  async *replaceBatches(filter: string, options: MatchOptions = {}): AsyncGenerator<RecordBatch> {
    const matches = await this.op(() => this.match(filter, options, true));
    for (const m of matches) {
      this.check();
      let start = -1;
      const runs: [number, number][] = [];
      for (let k = 0; k <= m.rows.length; k++) {
        const keep = k < m.rows.length && !this.data.isDeleted(m.part, m.rows[k]!);
        if (keep && start < 0) start = k;
        if (!keep && start >= 0) {
          runs.push([start, k]);
          start = -1;
        }
      }
      this.data.markDeleted(m.part, m.rows);
      for (const [lo, hi] of runs) yield lo === 0 && hi === m.rows.length ? m.batch! : m.batch!.slice(lo, hi);
    }
  }

  /** `Table.aggregatePartials` over the transaction's view (its snapshot plus its own writes). */
  async aggregatePartials(groupBy: string, options: AggregateOptions = {}): Promise<ArrowTable> {
    return this.op(async () => {
      const { merged, task, keyType } = await aggregateSnapshot(this.ctx, this.data.view(), groupBy, options, this.table);
      return partialTable(merged, task.fields, keyType);
    });
  }

  /** A lazy select over the transaction's view: the snapshot it began with plus its own writes. */
  select(filter?: string, options: SelectOptions = {}): Cursor {
    return new Cursor(this.ctx, this.table, filter, options, () => {
      this.check();
      this.readers++;
      return { ...this.data.view(), release: () => this.readerDone() };
    });
  }

  /** Makes every change visible at once; `Conflict` (nothing applied) when another commit won. */
  async commit(): Promise<void> {
    this.check();
    this.status = 'committing';
    try {
      await Promise.allSettled([...this.ops]);
      if (!this.data.empty) await this.apply();
      this.status = 'committed';
    } catch (e) {
      this.status = 'rolled back';
      throw e;
    } finally {
      this.finish();
    }
  }

  /** Discards every change. Harmless after a rollback; after a commit it is an error. */
  async rollback(): Promise<void> {
    if (this.status === 'rolled back') return;
    if (this.status !== 'active') {
      throw new HaloclineError('InvalidArgument', `the transaction on table "${this.table}" is ${this.status}; it cannot be rolled back`, { table: this.table });
    }
    this.status = 'rolled back';
    this.finish();
  }

  private async apply(): Promise<void> {
    const { base } = this.data;
    const batches = [];
    for await (const b of this.data.inserted()) batches.push(b);
    const written = batches.length > 0 ? await writeParts(this.ctx, base.record.id, base.schema, batches) : [];
    const deletes = this.data.deletes();
    await commit(this.ctx, this.table, base.record.id, {
      add: written,
      remove: [],
      deletes,
      baseVersion: base.record.version,
      schemaVersion: base.record.schemaVersion ?? 0,
    });
    scheduleCompaction(this.ctx, this.table, base.record.id);
  }

  private match(filter: string, options: MatchOptions, withData: boolean): Promise<PartMatches[]> {
    if (typeof filter !== 'string') {
      throw new HaloclineError('InvalidArgument', `the filter must be a query string, got ${typeof filter}`, { table: this.table });
    }
    const view = this.data.view();
    return scanMatches(this.ctx, view, plan(view.schema, this.table, filter, { vars: options.vars }), withData);
  }

  // runs one operation; commit waits for the ones in flight
  private op<R>(fn: () => Promise<R>): Promise<R> {
    this.check();
    this.readers++;
    const p = fn().finally(() => {
      this.ops.delete(p);
      this.readerDone();
    });
    this.ops.add(p);
    return p;
  }

  private check(): void {
    this.ctx.checkOpen();
    if (this.status !== 'active') {
      throw new HaloclineError('Closed', `the transaction on table "${this.table}" is ${this.status}`, { table: this.table });
    }
  }

  // operations started while active finish even when commit() began meanwhile (commit waits for them)
  private checkNotFinished(): void {
    if (this.status === 'committed' || this.status === 'rolled back') {
      throw new HaloclineError('Closed', `the transaction on table "${this.table}" is ${this.status}`, { table: this.table });
    }
  }

  private readerDone(): void {
    this.readers--;
    if (this.readers === 0 && this.status !== 'active' && this.status !== 'committing') this.data.base.release();
  }

  private finish(): void {
    if (this.readers === 0) this.data.base.release();
  }
}
