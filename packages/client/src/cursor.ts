// A remote select: streamed Arrow IPC pages, continuation cursors followed transparently.
import { type CursorApi, HaloclineError, type Row, type SelectOptions, batchToRows } from '@halocline/engine';
import { type RecordBatch, Table as ArrowTable } from 'apache-arrow';
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
export class RemoteCursor implements CursorApi {
  constructor(
    private readonly target: SelectTarget,
    private readonly filter: string | undefined,
    private readonly options: SelectOptions = {},
  ) {}

  async *batches(): AsyncGenerator<RecordBatch> {
    const { http, tableId, txId, timeout } = this.target;
    if (this.filter !== undefined && typeof this.filter !== 'string') throw new HaloclineError('InvalidArgument', `the filter must be a query string, got ${typeof this.filter}`);
    const body = { query: this.filter ?? null, cols: this.options.cols ?? null, vars: this.options.vars ?? null, ...(timeout !== undefined ? { timeout } : {}) };
    let cursor: string | undefined;
    do {
      const res = await http.stream({ method: 'POST', path: '/api/table/v2/sdk/select', query: { table_id: tableId, tx_id: txId?.() ?? '' }, json: { ...body, cursor: cursor ?? null }, read: true, pass: [204] });
      if (res.status === 204) throw new HaloclineError('NotFound', `table "${tableId}" does not exist`, { table: tableId });
      const it = readBatches(res);
      let r = await it.next();
      for (; !r.done; r = await it.next()) yield r.value;
      cursor = r.value.cursor;
    } while (cursor);
  }

  async *dataframes(): AsyncGenerator<ArrowTable> {
    for await (const b of this.batches()) yield new ArrowTable([b]);
  }

  async *rows(): AsyncGenerator<Row> {
    for await (const b of this.batches()) yield* batchToRows(b);
  }

  async *pages(size: number): AsyncGenerator<Row[]> {
    if (!Number.isInteger(size) || size < 0) throw new HaloclineError('InvalidArgument', `page size must be a non-negative integer, got ${String(size)}`);
    let page: Row[] = [];
    for await (const b of this.batches()) {
      const rows = batchToRows(b);
      if (size === 0) {
        yield rows;
        continue;
      }
      for (const r of rows) {
        page.push(r);
        if (page.length === size) {
          yield page;
          page = [];
        }
      }
    }
    if (page.length > 0) yield page;
  }

  async all(): Promise<Row[]> {
    const out: Row[] = [];
    for await (const b of this.batches()) for (const r of batchToRows(b)) out.push(r);
    return out;
  }

  /** Counts by streaming the narrowest projection the caller asked for (all columns otherwise). */
  async count(): Promise<number> {
    let n = 0;
    for await (const b of this.batches()) n += b.numRows;
    return n;
  }
}
