// A remote tabular v2 table: the engine's TableApi over HTTP (`/api/table/v2/...`).
import {
  type AggregateOptions, HaloclineError, type InsertData, ipcChunks, type SelectOptions, type TableApi, type TableStats, toRecordBatches,
} from '@halocline/engine';
import { Field, RecordBatch, Schema, Table as ArrowTable } from 'apache-arrow';
import { finalFromPartials } from './aggregate.js';
import { RemoteCursor } from './cursor.js';
import type { Http } from './http.js';
import { ARROW_STREAM, readBatches, readSchema, toIpc } from './ipc.js';
import { RemoteRaw } from './raw.js';
import { RemoteTransaction } from './transaction.js';

/** `client.table(datasetUuid)`; options: the select time budget per request in seconds. */
export class RemoteTable implements TableApi {
  readonly raw: RemoteRaw;

  constructor(
    private readonly http: Http,
    readonly tableId: string,
    private readonly options: { readonly timeout?: number } = {},
  ) {
    this.raw = new RemoteRaw(http, tableId);
  }

  async create(schema: Schema): Promise<void> {
    await this.post('/api/table/v2/sdk/create', toIpc(schema, []));
  }

  async schema(): Promise<Schema | undefined> {
    const res = await this.http.send({ method: 'POST', path: '/api/table/v2/sdk/select', query: this.q(), json: { query: '"fetch" == "schema"' }, read: true, pass: [204] });
    return res.status === 204 ? undefined : readSchema(res);
  }

  /** Renames given as `prev_name` field metadata travel as the wire's `rename` batch metadata. */
  async alter(schema: Schema): Promise<void> {
    const renames: Record<string, string> = {};
    const fields = schema.fields.map((f) => {
      const prev = f.metadata.get('prev_name');
      if (prev === undefined) return f;
      renames[f.name] = prev;
      const metadata = new Map(f.metadata);
      metadata.delete('prev_name');
      return new Field(f.name, f.type, f.nullable, metadata);
    });
    const plain = new Schema(fields, schema.metadata);
    const meta = Object.keys(renames).length > 0 ? new Map([['rename', JSON.stringify(renames)]]) : undefined;
    await this.post('/api/table/v2/sdk/alter', toIpc(plain, [], meta), true);
  }

  async drop(): Promise<void> {
    await this.post('/api/table/v2/drop', undefined, true);
  }

  async truncate(): Promise<void> {
    await this.post('/api/table/v2/truncate', undefined, true);
  }

  async stats(): Promise<TableStats> {
    const res = await this.post('/api/table/v2/stats', undefined, true, true);
    return (await res.json()) as TableStats;
  }

  /** Rows are validated and converted here with the table's schema (same errors as the engine), then sent as Arrow. */
  async insert(data: InsertData, txId = ''): Promise<void> {
    const schema = await this.schema();
    if (!schema) throw new HaloclineError('NotFound', `table "${this.tableId}" does not exist; create it with a schema first`, { table: this.tableId });
    const batches = toRecordBatches(schema, data, { table: this.tableId }).filter((b) => b.numRows > 0);
    if (batches.length === 0) return;
    // the IPC stream goes out as views of the batches' buffers, never joined into one body
    await this.http.upload({ method: 'POST', path: '/api/table/v2/sdk/insert', query: { table_id: this.tableId, tx_id: txId }, chunks: () => ipcChunks(schema, batches), headers: { 'content-type': ARROW_STREAM } });
  }

  select(filter?: string, options: SelectOptions = {}): RemoteCursor {
    return new RemoteCursor({ http: this.http, tableId: this.tableId, ...(this.options.timeout !== undefined ? { timeout: this.options.timeout } : {}) }, filter, options);
  }

  async aggregatePartials(groupBy: string, options: AggregateOptions = {}): Promise<ArrowTable> {
    const res = await this.http.send({
      method: 'POST', path: '/api/table/v2/sdk/aggregate', query: this.q(), read: true, pass: [204],
      json: { by: groupBy, query: options.query ?? null, aggr: options.aggr ?? null, vars: options.vars ?? null },
    });
    if (res.status === 204) throw this.missing();
    const batches: RecordBatch[] = [];
    const it = readBatches(res);
    let r = await it.next();
    for (; !r.done; r = await it.next()) batches.push(r.value);
    // apache-arrow writes the key field "" without a name and reads it back as null: name it "" again
    const schema = new Schema(r.value.schema.fields.map((f) => (f.name ? f : new Field('', f.type, f.nullable, f.metadata))), r.value.schema.metadata);
    return new ArrowTable(batches.length > 0 ? batches.map((b) => new RecordBatch(schema, b.data)) : [new RecordBatch(schema, undefined)]);
  }

  async aggregate(groupBy: string, options: AggregateOptions = {}): Promise<ArrowTable> {
    const schema = await this.schema();
    if (!schema) throw this.missing();
    return finalFromPartials(await this.aggregatePartials(groupBy, options), groupBy, options, schema);
  }

  async begin(): Promise<RemoteTransaction> {
    const res = await this.post('/api/table/v2/begin', undefined, true);
    const { tx_id } = (await res.json()) as { tx_id: string };
    return new RemoteTransaction(this.http, this, tx_id);
  }

  async transaction<R>(fn: (tx: RemoteTransaction) => Promise<R>): Promise<R> {
    const tx = await this.begin();
    let result: R;
    try {
      result = await fn(tx);
    } catch (e) {
      if (tx.state === 'active') await tx.rollback().catch(() => undefined);
      throw e;
    }
    await tx.commit();
    return result;
  }

  /** @internal a select cursor inside transaction `txId` */
  cursorIn(txId: string, filter: string | undefined, options: SelectOptions): RemoteCursor {
    return new RemoteCursor({ http: this.http, tableId: this.tableId, txId: () => txId }, filter, options);
  }

  private async post(path: string, body: Uint8Array | undefined, missing204 = false, read = false): Promise<Response> {
    const res = await this.http.send({ method: 'POST', path, query: this.q(), read, pass: [204], ...(body ? { body, headers: { 'content-type': ARROW_STREAM } } : {}) });
    if (res.status === 204 && missing204) throw this.missing();
    return res;
  }

  private q() {
    return { table_id: this.tableId };
  }

  private missing(): HaloclineError {
    return new HaloclineError('NotFound', `table "${this.tableId}" does not exist`, { table: this.tableId });
  }
}
