// Parquet ingest, main-thread side: a dedicated worker decodes row groups (see worker.ts); this side
// serves it file bytes from the BlobStore and turns its IPC bytes back into record batches, one row
// group ahead, so at most two decoded row groups are in memory.
import { Worker } from 'node:worker_threads';
import { Field, Schema, Type, tableFromIPC } from 'apache-arrow';
import type { StoreContext } from '../../context.js';
import { HaloclineError } from '../../errors.js';
import type { RawRecord } from '../../raw/entry.js';
import type { FileSource, SourceBatch } from '../source.js';
import { workerEntry } from '../worker-entry.js';
import type { FromWorker, ParquetWorkerData, RowGroupInfo, ToWorker } from './protocol.js';

interface Meta {
  readonly schema: Schema;
  readonly groups: readonly RowGroupInfo[];
}

/** Reads a stored Parquet file row group by row group in a worker thread. */
export class ParquetSource implements FileSource {
  private worker: Worker | undefined;
  private meta: Promise<Meta> | undefined;
  private readonly groups = new Map<number, Deferred<Uint8Array>>();
  private failure: Error | undefined;
  private onMeta: Deferred<Meta> | undefined;

  constructor(
    private readonly ctx: StoreContext,
    private readonly file: RawRecord,
  ) {}

  async names(): Promise<string[]> {
    return (await this.start()).schema.fields.map((f) => f.name);
  }

  async schema(): Promise<Schema> {
    return (await this.start()).schema;
  }

  async *batches(): AsyncGenerator<SourceBatch> {
    const { groups } = await this.start();
    let bytes = 0;
    for (let g = 0; g < groups.length; g++) {
      const ipc = await this.group(g);
      if (g + 1 < groups.length) this.request(g + 1);
      bytes += groups[g]!.bytes;
      const table = tableFromIPC(ipc);
      for (const batch of table.batches) yield { batch, bytes: Math.min(bytes, this.file.size) };
      this.groups.delete(g);
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Promise<Meta> {
    if (this.meta) return this.meta;
    const { filename, eval: inline } = workerEntry('parquet/worker');
    const workerData: ParquetWorkerData = { size: this.file.size };
    const worker = (this.worker = new Worker(filename, { workerData, eval: inline }));
    this.onMeta = deferred<Meta>();
    worker.on('message', (m: FromWorker) => this.receive(m));
    worker.on('error', (e) => this.fail(e.message));
    worker.on('exit', () => this.fail('the Parquet worker stopped'));
    this.meta = this.onMeta.promise;
    return this.meta;
  }

  private receive(m: FromWorker): void {
    switch (m.kind) {
      case 'range':
        void this.serve(m.req, m.start, m.end);
        break;
      case 'meta':
        this.onMeta?.resolve({ schema: withGeometry(tableFromIPC(m.schema).schema, m.kv), groups: m.groups });
        if (m.groups.length > 0) this.request(0);
        break;
      case 'group':
        this.groups.get(m.group)?.resolve(m.ipc);
        break;
      case 'error':
        this.fail(m.message);
        break;
    }
  }

  private async serve(req: number, start: number, end: number): Promise<void> {
    const post = (message: ToWorker) => this.worker?.postMessage(message);
    try {
      const bytes = new Uint8Array(Math.max(0, Math.min(end, this.file.size) - start));
      await this.ctx.blobs.read(this.file.file, start, bytes);
      post({ kind: 'range', req, bytes });
    } catch (e) {
      post({ kind: 'range-error', req, message: (e as Error).message });
    }
  }

  private request(g: number): void {
    if (this.groups.has(g)) return;
    this.groups.set(g, deferred());
    this.worker?.postMessage({ kind: 'read', group: g } satisfies ToWorker);
  }

  private group(g: number): Promise<Uint8Array> {
    if (this.failure) return Promise.reject(this.failure);
    this.request(g);
    return this.groups.get(g)!.promise;
  }

  private fail(message: string): void {
    if (this.failure) return;
    this.failure = new HaloclineError('InvalidData', `not a readable Parquet file: ${message}`, { path: this.file.name });
    this.onMeta?.reject(this.failure);
    for (const d of this.groups.values()) d.reject(this.failure);
  }
}

// GeoParquet: columns named in the `geo` key-value metadata are geometry columns (WKB or WKT).
function withGeometry(schema: Schema, kv: readonly (readonly [string, string])[]): Schema {
  const geo = kv.find(([k]) => k === 'geo')?.[1];
  let columns: Record<string, unknown> = {};
  try {
    columns = geo ? ((JSON.parse(geo) as { columns?: Record<string, unknown> }).columns ?? {}) : {};
  } catch {
    columns = {};
  }
  const fields = schema.fields.map((f) => {
    const text = f.type.typeId === Type.Utf8 || f.type.typeId === Type.LargeUtf8;
    const bytes = f.type.typeId === Type.Binary || f.type.typeId === Type.LargeBinary;
    if (!(f.name in columns) || !(text || bytes)) return f;
    return new Field(f.name, f.type, f.nullable, new Map([...f.metadata, ['class', 'geometry']]));
  });
  return new Schema(fields);
}

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(v: T): void;
  reject(e: Error): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined); // rejections are observed by whoever awaits; none may go unhandled
  return { promise, resolve, reject };
}
