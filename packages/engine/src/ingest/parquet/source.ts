// Parquet ingest, main-thread side: worker threads decode, conform and place row groups (see
// worker.ts, place.ts), two at once, alternating; this side serves them file bytes from the
// BlobStore and assembles the placed pieces into partitions in order, keeping AHEAD row groups per
// worker requested beyond the one being assembled.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { Field, Schema, Table, Type, tableFromIPC, tableToIPC } from 'apache-arrow';
import type { StoreContext } from '../../context.js';
import { type ErrorCode, HaloclineError } from '../../errors.js';
import type { RawRecord } from '../../raw/entry.js';
import type { BlobReader } from '../../storage/blobstore.js';
import type { FileSource, FilledProgress, OpenLaidOut } from '../source.js';
import { PartitionFill } from './assemble.js';
import type { Piece, PartTarget } from './place.js';
import type { FromWorker, RowGroupInfo, ToWorker } from './protocol.js';
import { parquetWorkers } from './workers.js';
import { sharedBuffer } from '../../exec/shared-memory.js';

/** Workers decoding at once. */
const DECODERS = Math.max(1, Math.min(2, availableParallelism()));
/** Row groups asked of each worker ahead of the one being converted (decoding never waits on it)... */
const AHEAD = 2;
/** ...as long as they hold at most this many rows in all (memory stays bounded for huge row groups). */
const AHEAD_ROWS = 1 << 19;

interface Meta {
  readonly schema: Schema;
  readonly groups: readonly RowGroupInfo[];
}

interface Decoder {
  readonly worker: Worker;
  readonly listener: (m: FromWorker) => void;
  readonly onError: (e: Error) => void;
  readonly onExit: () => void;
  /** Messages it still owes this file (meta and row groups). */
  owed: number;
  /** Shared memory of ranges sent to it and not yet copied out, by its request number. */
  readonly lent: Map<number, SharedArrayBuffer>;
}

let sessions = 0;

/** Reads a stored Parquet file row group by row group in worker threads. */
export class ParquetSource implements FileSource {
  private readonly session = ++sessions;
  private decoders: Decoder[] = [];
  private meta: Promise<Meta> | undefined;
  private readonly placedGroups = new Map<number, Deferred<Piece[]>>();
  private failure: Error | undefined;
  private onMeta: Deferred<Meta> | undefined;
  private metaNow: Meta | undefined;
  /** The file, opened once for every range the workers ask for. */
  private reader: Promise<BlobReader> | undefined;

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

  /**
   * The rows conformed and placed by the workers into partitions of `partitionRows` rows: each
   * worker writes fixed-width values straight into the partition's shared buffers and computes the
   * zone maps of var-width and bool columns; this thread merges validity, computes the fixed-width
   * zone maps (its loops run faster than in a thread running wasm) and copies var-width columns.
   */
  async *partitions(schema: Schema, rename: ReadonlyMap<string, string>, partitionRows: number, table: string, laidOut?: OpenLaidOut): AsyncGenerator<FilledProgress> {
    const { groups } = await this.start();
    const target: ToWorker = { kind: 'target', session: this.session, schema: tableToIPC(new Table(schema), 'stream'), rename: [...rename], table };
    for (const d of this.decoders) d.worker.postMessage(target);
    const firstRows: number[] = [];
    let total = 0;
    for (const g of groups) (firstRows.push(total), (total += g.rows));
    const fills = new Map<number, PartitionFill>();
    const fillOf = (p: number) => {
      let fill = fills.get(p);
      if (!fill) fills.set(p, (fill = new PartitionFill(schema, Math.min(partitionRows, total - p * partitionRows), laidOut, laidOut && this.alloc)));
      return fill;
    };
    // the stretches of group g in each partition it overlaps, the partitions' buffers made on demand
    const targets = (g: number): { targets: PartTarget[]; parts: number[] } => {
      const out: PartTarget[] = [];
      const parts: number[] = [];
      const start = firstRows[g]!;
      const end = start + groups[g]!.rows;
      for (let row = start; row < end; ) {
        const p = Math.floor(row / partitionRows);
        const stop = Math.min(end, (p + 1) * partitionRows);
        out.push({ groupRow: row - start, rows: stop - row, partRow: row - p * partitionRows, placed: fillOf(p).placed });
        parts.push(p);
        row = stop;
      }
      return { targets: out, parts };
    };
    const partsOf = new Map<number, number[]>();
    const ask = (g: number) => {
      if (this.placedGroups.has(g) || this.failure) return;
      const t = targets(g);
      partsOf.set(g, t.parts);
      this.placedGroups.set(g, deferred());
      const d = this.decoders[g % this.decoders.length]!;
      d.owed++;
      d.worker.postMessage({ kind: 'place', session: this.session, group: g, firstRow: firstRows[g]!, targets: t.targets } satisfies ToWorker);
    };
    let bytes = 0;
    let rows = 0;
    for (let g = 0; g < groups.length; g++) {
      this.aheadOf(g, ask);
      if (this.failure) throw this.failure;
      ask(g);
      const pieces = await this.placedGroups.get(g)!.promise;
      this.placedGroups.delete(g);
      bytes += groups[g]!.bytes;
      const parts = partsOf.get(g)!;
      partsOf.delete(g);
      for (const piece of pieces) {
        const p = parts[piece.target]!;
        const fill = fills.get(p)!;
        const copied = fill.add(piece);
        if (copied.length > 0) this.decoders[g % this.decoders.length]?.worker.postMessage({ kind: 'recycle', buffers: copied } satisfies ToWorker);
        rows += piece.rows;
        if (!fill.full) continue;
        fills.delete(p);
        yield { rows, bytes: Math.min(bytes, this.file.size), filled: fill.finish(), file: fill.file };
      }
      yield { rows, bytes: Math.min(bytes, this.file.size) };
    }
  }

  // a laid-out partition's buffers come from the part writer's pool (memory this process has
  // touched: fresh pages fault, `shared-pool.ts`); the sink gives them back once the file is written
  private readonly alloc = (bytes: number): SharedArrayBuffer => this.ctx.partWriter?.buffers.acquire(bytes) ?? sharedBuffer(bytes);

  /** Hands idle workers back for the next ingest; ends any still busy with this file. */
  async close(): Promise<void> {
    const decoders = this.decoders;
    this.decoders = [];
    const reader = this.reader;
    this.reader = undefined;
    await reader?.then((r) => r.close()).catch(() => undefined);
    await Promise.all(
      decoders.map(async (d) => {
        d.worker.off('message', d.listener).off('error', d.onError).off('exit', d.onExit);
        if (d.owed === 0 && !this.failure) parquetWorkers.release(d.worker);
        else await d.worker.terminate();
      }),
    );
  }

  // asks for group g and the ones after it: one group per worker always, more while the groups
  // asked for hold at most AHEAD_ROWS rows
  private aheadOf(g: number, ask: (group: number) => void): void {
    const groups = this.metaNow!.groups;
    let rows = 0;
    for (let k = 0; g + k < groups.length && k < AHEAD * this.decoders.length; k++) {
      rows += groups[g + k]!.rows;
      if (k >= this.decoders.length && rows > AHEAD_ROWS) break;
      ask(g + k);
    }
  }

  private start(): Promise<Meta> {
    if (this.meta) return this.meta;
    this.onMeta = deferred<Meta>();
    this.meta = this.onMeta.promise;
    for (let i = 0; i < DECODERS; i++) {
      const worker = parquetWorkers.acquire();
      const d: Decoder = {
        worker,
        owed: 1,
        lent: new Map(),
        listener: (m) => this.receive(d, m),
        onError: (e) => this.fail(e.message),
        onExit: () => this.fail('the Parquet worker stopped'),
      };
      worker.on('message', d.listener).on('error', d.onError).on('exit', d.onExit);
      this.decoders.push(d);
      worker.postMessage({ kind: 'open', session: this.session, size: this.file.size } satisfies ToWorker);
    }
    return this.meta;
  }

  private receive(d: Decoder, m: FromWorker): void {
    if (m.kind !== 'range' && m.kind !== 'range-copied' && m.session !== this.session) return;
    switch (m.kind) {
      case 'range':
        void this.serve(d, m.req, m.start, m.end);
        break;
      case 'range-copied': {
        const bytes = d.lent.get(m.req);
        d.lent.delete(m.req);
        if (bytes) this.ctx.partWriter?.buffers.release(bytes);
        break;
      }
      case 'meta':
        d.owed--;
        if (d === this.decoders[0]) {
          this.metaNow = { schema: withGeometry(tableFromIPC(m.schema).schema, m.kv), groups: m.groups };
          this.onMeta?.resolve(this.metaNow);
        }
        break;
      case 'placed':
        d.owed--;
        this.placedGroups.get(m.group)?.resolve(m.pieces as Piece[]);
        break;
      case 'invalid': {
        d.owed--;
        this.placedGroups.get(m.group)?.reject(new HaloclineError(m.code as ErrorCode, m.message, m.context));
        break;
      }
      case 'error':
        this.fail(m.message);
        break;
    }
  }

  private async serve(d: Decoder, req: number, start: number, end: number): Promise<void> {
    const post = (message: ToWorker) => d.worker.postMessage(message);
    try {
      // shared memory (posting it copies nothing on this thread) from the part writer's pool: the
      // worker copies the bytes out at once and says so (range-copied)
      const size = Math.max(0, Math.min(end, this.file.size) - start);
      const bytes = new Uint8Array(this.alloc(size), 0, size);
      this.reader ??= this.ctx.blobs.openReader(this.file.file);
      await (await this.reader).read(start, bytes);
      d.lent.set(req, bytes.buffer as SharedArrayBuffer);
      post({ kind: 'range', req, bytes });
    } catch (e) {
      post({ kind: 'range-error', req, message: (e as Error).message });
    }
  }

  private fail(message: string): void {
    if (this.failure) return;
    this.failure = new HaloclineError('InvalidData', `not a readable Parquet file: ${message}`, { path: this.file.name });
    this.onMeta?.reject(this.failure);
    for (const d of this.placedGroups.values()) d.reject(this.failure);
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
