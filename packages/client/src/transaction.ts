// A remote transaction: tx_id carried by insert, replace and select; commit or rollback ends it.
import { type RecordBatch, Table } from 'apache-arrow';
import { HaloclineError, type InsertData, type MatchOptions, type Row, type SelectOptions, type TransactionApi, type TransactionState, batchToRows } from '@halocline/engine';
import type { Http } from './http.js';
import { readBatches } from './ipc.js';
import type { RemoteCursor } from './cursor.js';
import type { RemoteTable } from './table.js';

/**
 * The server holds the transaction; it is rolled back there after an idle timeout. `replace` keeps
 * the engine's semantics: the server removes the rows as it streams them (ahead of the caller by the
 * stream and socket buffers), so when the caller stops early the rows it did not reach are read to the
 * end of the answer and inserted back in the same transaction: the table keeps them.
 */
export class RemoteTransaction implements TransactionApi {
  private status: TransactionState = 'active';

  constructor(
    private readonly http: Http,
    private readonly table: RemoteTable,
    readonly txId: string,
  ) {}

  get state(): TransactionState {
    return this.status;
  }

  async insert(data: InsertData): Promise<void> {
    this.check();
    await this.table.insert(data, this.txId);
  }

  async delete(filter: string, options: MatchOptions = {}): Promise<number> {
    let n = 0;
    for await (const b of this.removed(filter, options)) n += b.numRows;
    return n;
  }

  async *replace(filter: string, options: MatchOptions = {}): AsyncGenerator<Row> {
    const it = this.removed(filter, options);
    // the batch being yielded and the first of its rows not reached yet
    let batch: RecordBatch | undefined;
    let next = 0;
    let finished = false;
    let failure: { error: unknown } | undefined;
    try {
      for (let r = await it.next(); !r.done; r = await it.next()) {
        batch = r.value;
        const rows = batchToRows(batch);
        for (next = 0; next < rows.length; ) yield rows[next++]!;
      }
      finished = true;
    } catch (e) {
      failure = { error: e };
      throw e;
    } finally {
      // the caller left early (break, return or throw): what the server removed beyond the rows
      // it reached goes back in, so the table keeps them as the engine's replace would
      if (!finished && this.status === 'active') {
        try {
          await this.restore(batch && next < batch.numRows ? batch.slice(next) : undefined, it);
        } catch (restoreError) {
          // an error already on its way (the caller's, or the answer's) stays the one thrown
          if (!failure) throw restoreError;
          attachRestoreFailure(failure.error, restoreError);
        }
      }
    }
  }

  select(filter?: string, options: SelectOptions = {}): RemoteCursor {
    this.check();
    return this.table.cursorIn(this.txId, filter, options);
  }

  async commit(): Promise<void> {
    this.check();
    this.status = 'committing';
    try {
      await this.end('commit');
      this.status = 'committed';
    } catch (e) {
      this.status = 'rolled back';
      throw e;
    }
  }

  async rollback(): Promise<void> {
    if (this.status === 'rolled back') return;
    if (this.status !== 'active') throw new HaloclineError('InvalidArgument', `the transaction is ${this.status}; it cannot be rolled back`);
    this.status = 'rolled back';
    await this.end('rollback');
  }

  private async restore(rest: RecordBatch | undefined, it: AsyncGenerator<RecordBatch>): Promise<void> {
    const batches = rest ? [rest] : [];
    for (let r = await it.next(); !r.done; r = await it.next()) if (r.value.numRows > 0) batches.push(r.value);
    if (batches.length > 0) await this.table.insert(new Table(batches), this.txId);
  }

  private async *removed(filter: string, options: MatchOptions) {
    this.check();
    if (typeof filter !== 'string') throw new HaloclineError('InvalidArgument', `the filter must be a query string, got ${typeof filter}`);
    const res = await this.http.send({ method: 'POST', path: '/api/table/v2/sdk/replace', query: this.q(), json: { query: filter, vars: options.vars ?? null } });
    const it = readBatches(res);
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }

  private async end(op: 'commit' | 'rollback'): Promise<void> {
    await this.http.send({ method: 'POST', path: `/api/table/v2/${op}`, query: this.q() });
  }

  private q() {
    return { table_id: this.table.tableId, tx_id: this.txId };
  }

  private check(): void {
    if (this.status !== 'active') throw new HaloclineError('Closed', `the transaction on table "${this.table.tableId}" is ${this.status}`);
  }
}

/**
 * Records on `error` (kept as the error thrown) that putting the unreached rows back failed too: as its
 * `cause` when it has none, and always as `restoreError`.
 */
function attachRestoreFailure(error: unknown, restoreError: unknown): void {
  if (typeof error !== 'object' || error === null || !Object.isExtensible(error)) return;
  if ((error as { cause?: unknown }).cause === undefined) Object.defineProperty(error, 'cause', { value: restoreError, configurable: true, writable: true });
  Object.defineProperty(error, 'restoreError', { value: restoreError, configurable: true, writable: true });
}
