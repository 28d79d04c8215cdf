// A remote select: streamed Arrow IPC pages, continuation cursors followed transparently.
import { BatchViews, type CursorApi, HaloclineError, type SelectOptions } from '@halocline/engine';
import type { RecordBatch } from 'apache-arrow';
import type { Http } from './http.js';
import { readBatches } from './ipc.js';

/** Where a cursor's requests go. */
export interface SelectTarget {
  readonly http: Http;
  readonly tableId: string;
  readonly txId?: () => string;
  /** Seconds the server may stream before answering a continuation (default 30). */
  readonly timeout?: number;
}

/** Lazy: each iteration posts the select (and its continuations) anew. */
export class RemoteCursor extends BatchViews implements CursorApi {
  constructor(
    private readonly target: SelectTarget,
    private readonly filter: string | undefined,
    private readonly options: SelectOptions = {},
  ) {
    super();
  }

  async *batches(): AsyncGenerator<RecordBatch> {
    const { http, tableId, txId, timeout } = this.target;
    if (this.filter !== undefined && typeof this.filter !== 'string') throw new HaloclineError('InvalidArgument', `the filter must be a query string, got ${typeof this.filter}`);
    const body = { query: this.filter ?? null, cols: this.options.cols ?? null, vars: this.options.vars ?? null, ...(timeout !== undefined ? { timeout } : {}) };
    let cursor: string | undefined;
    do {
      const res = await http.read({ method: 'POST', path: '/api/table/v2/sdk/select', query: { table_id: tableId, tx_id: txId?.() ?? '' }, json: { ...body, cursor: cursor ?? null }, read: true, pass: [204] });
      if (res.status === 204) throw new HaloclineError('NotFound', `table "${tableId}" does not exist`, { table: tableId });
      const it = readBatches(res);
      let r = await it.next();
      for (; !r.done; r = await it.next()) yield r.value;
      cursor = r.value.cursor;
    } while (cursor);
  }

  protected override errorContext(): { table: string } {
    return { table: this.target.tableId };
  }

  /** Counts by streaming the narrowest projection the caller asked for (all columns otherwise). */
  async count(): Promise<number> {
    let n = 0;
    for await (const b of this.batches()) n += b.numRows;
    return n;
  }
}
