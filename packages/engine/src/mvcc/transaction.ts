// Transactions: snapshot-isolated inserts, deletes, replaces and selects, committed all at once or not at all.
import type { RecordBatch, Table as ArrowTable } from 'apache-arrow';
import { aggregateSnapshot } from '../aggregate/execute.js';
import { partialTable } from '../aggregate/merge.js';
import type { AggregateOptions } from '../aggregate/spec.js';
import type { TransactionApi } from '../api.js';
import type { StoreContext } from '../context.js';
import { Cursor } from '../cursor.js';
import { type InsertInput, toRecordBatches } from '../data/convert.js';
import { HaloclineError, isHaloclineError } from '../errors.js';
import { type PartMatches, matchEach, scanMatches } from '../read/execute.js';
import { MATCH_OPTIONS, type Plan, checkOptions, plan, type SelectOptions } from '../read/plan.js';
import { openSnapshot, type Snapshot } from '../read/snapshot.js';
import { commit } from '../write/commit.js';
import { scheduleCompaction } from '../write/compact.js';
import { HELPER_ROWS, removeParts, type WrittenPart, writeParts } from '../write/partition.js';
import { Replacement } from './replace.js';
import { TxState } from './tx-state.js';
import { keepShape } from '../shapes.js';

/**
 * Row objects staged by per-row inserts before they are converted together: few enough that the
 * values they hold (Dates, bigints, strings) rarely live through a young-generation collection
 * (16k made every staged row survive one and many be promoted: about twice the GC time).
 */
const QUEUED_ROWS = 2048;

// one row object (not an array, not Arrow data): queued, converted with the next ones
function isRowObject(data: InsertInput): boolean {
  return typeof data === 'object' && data !== null && !Array.isArray(data) && Object.getPrototypeOf(data) === Object.prototype;
}

const DONE: Promise<void> = Promise.resolve();

/** Rows left unwritten at commit from which they are shared between the part writer and the committing thread. */
const SHARED_TAIL_ROWS = 8192;

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
  private rowInserts = 0;

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

  /**
   * Adds rows (same inputs as `Table.insert`). Every insert is atomic on its own: a row that does
   * not fit the schema fails this call with `InvalidData` (its row and column), nothing of the call
   * is added, and the transaction stays active. Single row objects (`insert({...})` per row, e.g. in
   * a replace loop) are checked at once and staged column by column, converted together every 2048
   * rows and at the latest at the next read or at commit. Should that conversion still fail (on what
   * no row alone shows: more than 2 GiB of text in one block, or a Date or byte array changed after
   * its insert), the read or commit fails naming the insert call, and the transaction is rolled back.
   */
  insert(data: InsertInput): Promise<void> {
    // not async: a row object costs no promise of its own (one resolved promise serves every call)
    try {
      this.check();
      if (!isRowObject(data)) return this.insertData(data);
      this.data.addRow(data as Readonly<Record<string, unknown>>);
      this.rowInserts++;
      if (this.data.queuedRows >= QUEUED_ROWS) this.flush();
      return DONE;
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** Deletes the rows matching `filter` (as the transaction sees them); resolves with how many. */
  async delete(filter: string, options: MatchOptions = {}): Promise<number> {
    return this.op(async () => {
      const matches = await this.match(filter, options, false);
      this.checkNotFinished();
      return matches.reduce((n, m) => n + this.data.markDeleted(m.part, m.rows, m.encoded), 0);
    });
  }

  /**
   * The rows matching `filter`, each deleted as it is yielded; the caller inserts a new version,
   * another row, or nothing. Iterate it for row objects or call `.batches()` for record batches.
   * Matches are computed before the first row is yielded, so rows inserted during the iteration are
   * not matched. Rows this transaction inserted earlier match like any other row.
   */
  replace(filter: string, options: MatchOptions = {}): Replacement {
    this.check();
    return new Replacement(() => this.matchEach(filter, options), this.data, this);
  }

  /** `replace(filter).batches()` (the wire shape of `/sdk/replace`). */
  replaceBatches(filter: string, options: MatchOptions = {}): AsyncGenerator<RecordBatch> {
    return this.replace(filter, options).batches();
  }

  /** `Table.aggregatePartials` over the transaction's view (its snapshot plus its own writes). */
  async aggregatePartials(groupBy: string, options: AggregateOptions = {}): Promise<ArrowTable> {
    return this.op(async () => {
      this.flush();
      const { merged, task, keyType } = await aggregateSnapshot(this.ctx, this.data.view(), groupBy, options, this.table);
      return partialTable(merged, task.fields, keyType);
    });
  }

  /** A lazy select over the transaction's view: the snapshot it began with plus its own writes. */
  select(filter?: string, options: SelectOptions = {}): Cursor {
    return new Cursor(this.ctx, this.table, filter, options, () => {
      this.check();
      this.flush();
      this.readers++;
      return { ...this.data.view(), release: () => this.readerDone() };
    });
  }

  /** Makes every change visible at once; `Conflict` (nothing applied) when another commit won. */
  async commit(): Promise<void> {
    const started = performance.now();
    this.check();
    this.flush();
    this.status = 'committing';
    try {
      await Promise.allSettled([...this.ops]);
      if (!this.data.empty) await this.apply(started);
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
    this.data.discard();
    this.finish();
  }

  private async insertData(data: InsertInput): Promise<void> {
    this.flush(); // queued rows first: rows keep the order they were inserted in
    const batches = toRecordBatches(this.data.base.schema, data, { table: this.table });
    this.data.add(batches.filter((b) => b.numRows > 0));
  }

  private async apply(started: number): Promise<void> {
    const { base } = this.data;
    const write = (batches: readonly RecordBatch[], background: boolean): Promise<WrittenPart[]> => {
      const rows = batches.filter((b) => b.numRows > 0);
      return rows.length > 0 ? writeParts(this.ctx, base.record.id, base.schema, rows, background) : Promise.resolve([]);
    };
    const made: WrittenPart[] = [];
    let version: number;
    try {
      // the rows no spill took, with those of the spills the part writer has not started (taken back),
      // are written now: when very many, on the scan workers (with one, half on it and the rest on
      // this thread; the first of their shares to finish then times the others); when many,
      // shared with the part writer so that each thread has about half of what is left to write,
      // spills it is writing included (a spill, see shareTail), the rest on this thread, which is
      // otherwise idle until the files are durable; when few (or the part writer's share would be
      // small), on this thread while a spill or a merge keeps the part writer busy, else on the part
      // writer
      this.data.reclaimSpills();
      const shared = this.data.shareTail(SHARED_TAIL_ROWS, HELPER_ROWS);
      const tailStarted = performance.now();
      const tail = shared ? write(shared, false) : write(this.data.takePending(), !this.data.spillInFlight && !this.ctx.partWriter?.busyMerging);
      // then this thread helps with what the part writer has not finished: what it has not started
      // at once, what it is writing after as long again as this thread's own share took (or, when
      // the scan workers took every row, the first of their shares)
      const paced = shared?.length === 0 ? this.data.firstShare() : tail;
      const spills = paced.then(
        () => this.data.hedgeSpills(shared ? performance.now() - tailStarted : 0),
        () => undefined,
      );
      const [inserted, last] = await Promise.allSettled([spills.then(() => this.data.inserted()), tail]);
      const tailFiles = last.status === 'fulfilled' ? last.value : [];
      made.push(...tailFiles);
      if (inserted.status === 'rejected') throw inserted.reason;
      if (last.status === 'rejected') throw last.reason;
      // rows that came back from spills (a failed write, or rows deleted again) and frozen by reads
      const rest = await write(inserted.value.batches, true);
      made.push(...rest);
      version = await commit(this.ctx, this.table, base.record.id, {
        add: [...inserted.value.files, ...rest, ...tailFiles],
        remove: [],
        deletes: this.data.deletes(),
        baseVersion: base.record.version,
        schemaVersion: base.record.schemaVersion ?? 0,
        trace: { kind: 'transaction', started },
      });
    } catch (e) {
      // nothing is committed: the files written for the transaction go
      this.data.discard();
      await removeParts(this.ctx, made);
      throw e;
    }
    this.data.seedUnions(version);
    scheduleCompaction(this.ctx, this.table, base.record.id);
  }

  private match(filter: string, options: MatchOptions, withData: boolean): Promise<PartMatches[]> {
    const [view, p] = this.matchPlan(filter, options);
    return scanMatches(this.ctx, view, p, withData);
  }

  // a replace's matches with their rows, per partition, all started now against the view of now
  // (computed first: rows inserted meanwhile are not in it); each is taken as it completes, and
  // commit waits for the ones still running
  private matchEach(filter: string, options: MatchOptions): Promise<Promise<PartMatches>[]> {
    return new Promise((resolve, reject) => {
      this.op(async () => {
        const [view, p] = this.matchPlan(filter, options);
        const each = matchEach(this.ctx, view, p, true);
        resolve(each);
        await Promise.allSettled(each);
      }).catch(reject);
    });
  }

  private matchPlan(filter: string, options: MatchOptions): [Snapshot, Plan] {
    if (typeof filter !== 'string') {
      throw new HaloclineError('InvalidArgument', `the filter must be a query string, got ${typeof filter}`, { table: this.table });
    }
    checkOptions(options, MATCH_OPTIONS, this.table);
    this.flush();
    const view = this.data.view();
    return [view, plan(view.schema, this.table, filter, { vars: options.vars })];
  }

  // converts the queued row objects; each was checked by its own insert, so a failure here is on
  // what no row alone shows (see insert) and rolls the transaction back (its insert call succeeded)
  private flush(): void {
    const queued = this.data.queuedRows;
    if (queued === 0) return;
    try {
      this.data.add([this.data.takeRows({ table: this.table })]);
    } catch (e) {
      if (!isHaloclineError(e, 'InvalidData')) throw e;
      // the position in the queue means nothing to the caller: name the insert call instead
      const call = this.rowInserts - queued + (e.row ?? 0) + 1;
      this.status = 'rolled back';
      this.data.discard();
      this.finish();
      const message = `${e.message.replace(/^row \d+/, `the row of insert call ${call} of this transaction`)}; the transaction is rolled back`;
      throw new HaloclineError('InvalidData', message, { table: e.table, column: e.column, value: e.value });
    }
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

  /** @internal throws `Closed` unless the transaction is active (and its store open) */
  check(): void {
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

// a transaction's hidden class outlives full GCs (see keepShape)
keepShape(new Transaction(null as never, '', null as never));
