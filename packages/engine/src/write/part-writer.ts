// The part writer: partition files encoded and written durably on one low-priority thread, so appends
// and compaction take the cores only when scans leave them idle (Linux thread nice; elsewhere plain).
import { Data, DataType, type Schema } from 'apache-arrow';
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ZoneStats } from '../expr/kernel.js';
import type { SplitMaps } from '../mvcc/forward.js';
import { type ErrorCode, HaloclineError } from '../errors.js';
import { sharedCopy } from '../exec/arrays.js';
import { workerModule } from '../exec/pool.js';
import { encodeSchema } from '../schema/serialize.js';
import { concatData } from '../storage/concat.js';
import type { PartRecord } from '../storage/records.js';
import type { EncodedPart } from './partition.js';
import { SharedPool } from './shared-pool.js';
import type { TierSplit } from './tier-split.js';
import type { TierWritten } from './tier-task.js';
import { sharedBuffer } from '../exec/shared-memory.js';

/**
 * Nice value of the writer thread, the lowest priority there is: a scan thread (nice 0, CFS weight
 * 1024) gets about 98.5% of a core it contends for with it (weight 15); an idle core it takes whole.
 */
export const WRITER_NICE = 19;

/** What the part writer thread gets: a column chunk's buffers in shared memory (never transferred). */
export interface SharedData {
  readonly offset: number;
  readonly length: number;
  readonly nullCount: number;
  readonly buffers: readonly (ArrayBufferView | undefined)[];
  readonly children: readonly SharedData[];
}

/** One partition file to write: `file` relative to `root`, columns of `schema` (Arrow IPC schema bytes). */
export interface PartWriteTask {
  readonly root: string;
  readonly id: string;
  readonly file: string;
  readonly schema: Uint8Array;
  /** The columns in schema order, or `chunks`, or `inputs`: whole partitions whose rows are concatenated (compaction). */
  readonly columns?: readonly SharedData[];
  /** Per column in schema order, the chunks the thread joins (a transaction's spill: views of its batches). */
  readonly chunks?: readonly (readonly SharedData[])[];
  readonly inputs?: readonly MergeInput[];
  readonly known?: Readonly<Record<string, ZoneStats>>;
  /**
   * Columns (by name) to send back in shared memory as written (a merge's result): the caller puts
   * them in the column cache instead of reading them back from the new file on its own thread.
   */
  readonly warm?: readonly string[];
  /** A claim on the write (see `Claim`): the thread writes only if the caller has not cancelled it first. */
  readonly claim?: Int32Array;
}

/**
 * Whether a queued write may still be taken back: one shared Int32 that the writer thread sets to
 * STARTED when it takes the task, or the caller to CANCELLED before that; whoever comes first wins.
 */
export const Claim = {
  OPEN: 0,
  STARTED: 1,
  CANCELLED: 2,
  /** A fresh claim to pass with `PartWriter.write`. */
  make: (): Int32Array => new Int32Array(sharedBuffer(4)),
  /** True when the write had not started: it never will (`PartWriter.write` fails with `Closed`). */
  cancel: (claim: Int32Array): boolean => Atomics.compareExchange(claim, 0, Claim.OPEN, Claim.CANCELLED) !== Claim.STARTED,
  /** On the writer thread: true when the task may run (it was not cancelled). */
  start: (claim: Int32Array): boolean => Atomics.compareExchange(claim, 0, Claim.OPEN, Claim.STARTED) !== Claim.CANCELLED,
} as const;

/**
 * A partition merged: its file, where its columns' segments are, and the rows to leave out (a
 * deletion bitmap over its rows, in shared memory), if any.
 */
export type MergeInput = Pick<PartRecord, 'file' | 'rows' | 'segments'> & { readonly deleted?: Uint8Array };

/** The writer thread's answer to a tier merge: the leaves it wrote (`tier-task.ts`), or an error as for `PartWriteReply`. */
export type TierWriteReply = { tier: TierWritten } | Exclude<PartWriteReply, { ok: EncodedPart }>;

/** The writer thread's answer: the file's layout (and the `warm` columns asked for), or an engine error as plain data. */
export type PartWriteReply = { ok: EncodedPart; warm?: readonly SharedData[] } | { error: { code: string; message: string; context: Record<string, unknown> } } | { cancelled: true };

/** Writes partition files on one worker thread below normal priority. */
export class PartWriter {
  private readonly pool: Piscina;
  private readonly schemas = new WeakMap<Schema, Uint8Array>();
  /** Where the copies of unshared columns go: reused from append to append (`shared-pool.ts`). */
  readonly buffers = new SharedPool();
  // merges and tier merges sent to the thread and not yet answered
  private merges = 0;
  /**
   * Runs a task on another thread instead (a scan worker, `PoolExecutor.runWrite`): where
   * `writeChunks` is asked for `helper` (a commit's share of a large transaction's rows).
   */
  helper: ((task: PartWriteTask) => Promise<PartWriteReply>) | null = null;
  /** The threads `helper` runs tasks on (a commit's rows are shared among them, `TxState.shareTail`). */
  helperThreads = 0;

  constructor(private readonly root: string) {
    const { filename, execArgv } = workerModule('./part-worker', import.meta.url);
    this.pool = new Piscina({ filename, execArgv, minThreads: 1, maxThreads: 1, idleTimeout: 60_000 });
    this.pool.on('error', () => undefined); // a dying worker rejects its task
  }

  /** The writer's thread (`exec/isolates.ts` starts it with its optimising compiles on itself). */
  get threads(): readonly Worker[] {
    return this.pool.threads;
  }

  /** True when every column can go to the thread (dictionary columns cannot: they stay on the caller). */
  accepts(columns: readonly Data[]): boolean {
    return columns.every(shareable);
  }

  /**
   * Encodes and durably writes one partition file; nothing is left behind when it fails. Columns not
   * in shared memory are copied into pooled buffers, given back to the pool once the thread is done.
   */
  async write(part: { id: string; file: string; schema: Schema; columns: readonly Data[]; known?: Readonly<Record<string, ZoneStats>>; claim?: Int32Array }): Promise<EncodedPart> {
    return this.leasing(async (alloc) => {
      const columns = part.columns.map((c) => share(c, false, alloc));
      const task = { root: this.root, id: part.id, file: part.file, schema: this.schemaBytes(part.schema), columns, ...(part.known ? { known: part.known } : {}) };
      return (await this.run(part.claim ? { ...task, claim: part.claim } : task)).part;
    });
  }

  /**
   * Encodes and durably writes one partition file of the rows of `chunks` (per column in schema
   * order, the chunks to join, in row order), joined on the thread: a transaction's spill costs the
   * caller no join, and none at all when commit takes the spill back before the thread starts it.
   * Chunks not in shared memory are copied into pooled buffers first. The columns named in `warm`
   * come back as written, in fresh shared memory (in that order), for the cache. With `helper`, on
   * the helper's thread when there is one (see `helper`).
   */
  async writeChunks(part: {
    id: string;
    file: string;
    schema: Schema;
    chunks: readonly (readonly Data[])[];
    warm?: readonly string[];
    claim?: Int32Array;
    helper?: boolean;
  }): Promise<{ part: EncodedPart; warm: Data[] }> {
    return this.leasing(async (alloc) => {
      const chunks = part.chunks.map((list, i) => joinUnshared(part.schema.fields[i]!.type, list, alloc).map((c) => share(c, false, alloc)));
      const warm = (part.warm ?? []).filter((n) => part.schema.fields.some((f) => f.name === n));
      const task = { root: this.root, id: part.id, file: part.file, schema: this.schemaBytes(part.schema), chunks, ...(warm.length > 0 ? { warm } : {}) };
      const { part: encoded, warm: shared } = await this.run(part.claim ? { ...task, claim: part.claim } : task, part.helper ? this.helper : null);
      const types = warm.map((n) => part.schema.fields.find((f) => f.name === n)!.type);
      return { part: encoded, warm: shared.map((s, i) => rebuild(types[i]!, s)) };
    });
  }

  // runs `task` with an allocator of pooled shared buffers, all given back once it has ended
  // (resolved, or rejected when the thread died): nothing reads them any more
  private async leasing<R>(task: (alloc: (bytes: number) => SharedArrayBuffer) => Promise<R>): Promise<R> {
    const lease = this.buffers.lease();
    try {
      return await task(lease.alloc);
    } finally {
      lease.release();
    }
  }

  /**
   * Writes the live rows of partitions, in order, as one partition file: the thread reads, drops
   * each input's deleted rows, joins, encodes and writes them (compaction merges and rewrites).
   */
  async merge(part: {
    id: string;
    file: string;
    schema: Schema;
    inputs: readonly MergeInput[];
    known?: Readonly<Record<string, ZoneStats>>;
    warm?: readonly string[];
  }): Promise<{ part: EncodedPart; warm: Data[] }> {
    const inputs = part.inputs.map(({ file, rows, segments, deleted }) => ({ file, rows, segments, ...(deleted ? { deleted } : {}) }));
    const warm = (part.warm ?? []).filter((n) => part.schema.fields.some((f) => f.name === n));
    const task = { root: this.root, id: part.id, file: part.file, schema: this.schemaBytes(part.schema), inputs, ...(part.known ? { known: part.known } : {}) };
    const { part: encoded, warm: shared } = await this.merging(this.run(warm.length > 0 ? { ...task, warm } : task));
    const types = warm.map((n) => part.schema.fields.find((f) => f.name === n)!.type);
    return { part: encoded, warm: shared.map((s, i) => rebuild(types[i]!, s)) };
  }

  /**
   * A tier merge, whole on the thread: it reads the inputs, drops their deleted rows, joins them,
   * splits them into leaves of partition files of `table` (`tier-split.ts`) and writes each
   * durably; when one fails it removes the others and the merge fails. Back come each leaf's file,
   * where each input's rows went (`moved`, for the forward records: the thread computes them, the
   * caller's event loop does not), and each leaf's `warm` columns as written.
   */
  async tier(task: {
    table: string;
    token: string;
    schema: Schema;
    inputs: readonly MergeInput[];
    split: TierSplit;
    warm?: readonly string[];
  }): Promise<{ parts: (EncodedPart & { file: string })[]; moved: SplitMaps; sortedBy?: string; warm: { names: string[]; columns: Data[][] } }> {
    const inputs = task.inputs.map(({ file, rows, segments, deleted }) => ({ file, rows, segments, ...(deleted ? { deleted } : {}) }));
    const names = (task.warm ?? []).filter((n) => task.schema.fields.some((f) => f.name === n));
    const sent = { root: this.root, table: task.table, token: task.token, schema: this.schemaBytes(task.schema), inputs, split: task.split, ...(names.length > 0 ? { warm: names } : {}) };
    const reply = (await this.merging(this.pool.run(sent))) as TierWriteReply;
    if (!('tier' in reply)) throw failure(reply, task.table);
    const { parts, moved, sortedBy, warm } = reply.tier;
    const types = names.map((n) => task.schema.fields.find((f) => f.name === n)!.type);
    const columns = (warm ?? []).map((leaf) => leaf.map((s, i) => rebuild(types[i]!, s)));
    return { parts, moved, ...(sortedBy ? { sortedBy } : {}), warm: { names: warm ? names : [], columns } };
  }

  /**
   * True while a merge or tier merge (compaction: each takes the thread for tens to hundreds of ms)
   * is queued or running: a write sent now waits for it.
   */
  get busyMerging(): boolean {
    return this.merges > 0;
  }

  private async merging<T>(work: Promise<T>): Promise<T> {
    this.merges++;
    try {
      return await work;
    } finally {
      this.merges--;
    }
  }

  private async run(task: PartWriteTask, on: ((task: PartWriteTask) => Promise<PartWriteReply>) | null = null): Promise<{ part: EncodedPart; warm: readonly SharedData[] }> {
    const reply = on ? await on(task) : ((await this.pool.run(task)) as PartWriteReply);
    if ('ok' in reply) return { part: reply.ok, warm: reply.warm ?? [] };
    throw failure(reply, task.id, task.file);
  }

  private schemaBytes(schema: Schema): Uint8Array {
    let bytes = this.schemas.get(schema);
    if (!bytes) this.schemas.set(schema, (bytes = encodeSchema(schema)));
    return bytes;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
    this.buffers.clear();
  }
}

/**
 * A chunk's buffers in SharedArrayBuffers: shared ones as they are, others copied once (posting
 * an ordinary buffer would clone the whole buffer behind a view; transferring would detach it).
 */
export function share(data: Data, copy = false, alloc?: (bytes: number) => SharedArrayBuffer): SharedData {
  const buffers = [data.valueOffsets, data.values, data.nullBitmap, data.typeIds].map((b) => (b ? toShared(b as ArrayBufferView, copy, alloc) : undefined));
  return { offset: data.offset, length: data.length, nullCount: data.nullCount, buffers, children: data.children.map((c) => share(c, copy, alloc)) };
}

/**
 * The chunk over SharedArrayBuffers, what scan workers and the writer thread read: buffers already
 * shared are kept unless `copy` (a copy the caller's later writes to its buffers cannot reach).
 */
export function sharedData(data: Data, copy = false): Data {
  return rebuild(data.type, share(data, copy));
}

/** A chunk of `type` over the buffers of `s` (no copy). */
export function rebuild(type: DataType, s: SharedData): Data {
  const children = s.children.map((c, i) => rebuild(type.children[i]!.type, c));
  return new Data(type, s.offset, s.length, s.nullCount, s.buffers as never, children);
}

// the error of a write the thread did not do
function failure(reply: Exclude<PartWriteReply, { ok: EncodedPart }>, id: string, file?: string): HaloclineError {
  if ('cancelled' in reply) return new HaloclineError('Closed', `the write of partition ${id} was cancelled before it started`, file ? { path: file } : {});
  const { code, message, context } = reply.error;
  return new HaloclineError(code as ErrorCode, message, context);
}

function shareable(data: Data): boolean {
  return !DataType.isDictionary(data.type) && (data.variadicBuffers?.length ?? 0) === 0 && data.children.every(shareable);
}

/**
 * A column's chunks as the writer thread gets them: when any of several is not in shared memory (a
 * transaction's per-row inserts come in 2048-row chunks of plain memory), all joined into one chunk
 * in buffers from `alloc`, the one copy they need either way; otherwise as they are. Copied one by
 * one, each small chunk had fresh shared memory of its own (below the pool's smallest class): a
 * 100k-row commit spent ~4 ms in page faults on the committing thread.
 */
export function joinUnshared(type: DataType, chunks: readonly Data[], alloc: (bytes: number) => SharedArrayBuffer): readonly Data[] {
  if (chunks.length < 2 || chunks.every(inShared)) return chunks;
  return [concatData(type, chunks, alloc)];
}

// whether every buffer of the chunk is shared, or empty (nothing to share)
const inShared = (data: Data): boolean =>
  [data.valueOffsets, data.values, data.nullBitmap, data.typeIds].every((b) => !b || nothingToCopy(b as ArrayBufferView)) && data.children.every(inShared);

function toShared(view: ArrayBufferView, copy: boolean, alloc?: (bytes: number) => SharedArrayBuffer): ArrayBufferView {
  return view.byteLength === 0 || (view.buffer instanceof SharedArrayBuffer && !copy) ? view : sharedCopy(view, alloc);
}

// An empty view has nothing to share: apache-arrow gives a column without nulls an empty ordinary
// `nullBitmap`, and counted as unshared it made every column of a batch replace's matches (shared
// memory from the scan workers) be joined again into pooled buffers at commit, then copied once
// more into fresh memory for the cache (docs/performance-history.md, W7D replace, session 25)
const nothingToCopy = (view: ArrayBufferView): boolean => view.byteLength === 0 || view.buffer instanceof SharedArrayBuffer;

