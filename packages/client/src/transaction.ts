// A remote transaction: tx_id carried by insert, replace and select; commit or rollback ends it.
import { HaloclineError, type InsertData, type MatchOptions, type Row, type SelectOptions, type TransactionApi, type TransactionState, batchToRows } from '@halocline/engine';
import type { Http } from './http.js';
import { readBatches } from './ipc.js';
import type { RemoteCursor } from './cursor.js';
import type { RemoteTable } from './table.js';

/**
 * The server holds the transaction; it is rolled back there after an idle timeout. `replace` differs
 * from the engine's in one case: the server removes the rows as it streams them (ahead of the client by
 * the stream and socket buffers), so a caller that stops early has lost every row already sent, not only those it
 * reached (the conformance suite's `replaceRemovesWholeAnswer`). Read a replace to its end.
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
    for await (const b of this.removed(filter, options)) yield* batchToRows(b);
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
