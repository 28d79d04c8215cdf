// Opening a store: one directory holding LMDB metadata (meta/) and immutable partition files (parts/).
import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Schema } from 'apache-arrow';
import type { EngineOptions, StoreContext } from './context.js';
import { HaloclineError, isHaloclineError } from './errors.js';
import type { Executor } from './exec/executor.js';
import { InlineExecutor } from './exec/inline.js';
import { startIsolates } from './exec/isolates.js';
import { PoolExecutor } from './exec/pool.js';
import { ReadActivity } from './read/activity.js';
import { Snapshots } from './read/snapshots.js';
import { decodeSchema } from './schema/serialize.js';
import { ColumnCache } from './storage/cache.js';
import { openLmdbMetaStore } from './storage/lmdb.js';
import { LocalBlobStore } from './storage/localfs.js';
import type { MetaStore } from './storage/metastore.js';
import { READABLE_FORMATS, STORE_FORMAT, STORE_KEY, type TableRecord, tablePrefix } from './storage/records.js';
import { collectGarbage } from './mvcc/garbage.js';
import { removeOrphans } from './mvcc/orphans.js';
import { Readers } from './mvcc/readers.js';
import { Table } from './table.js';
import { PartWriter } from './write/part-writer.js';

/** Options of `openStore`; only `path` is required. */
export interface StoreOptions extends Partial<EngineOptions> {
  /** The store's directory; created when missing. */
  readonly path: string;
  /**
   * Scan worker threads; default the number of cores; 0 scans everything inline and writes
   * partition files on the calling thread (otherwise appends and compaction write them on one
   * low-priority thread, `write/part-writer.ts`).
   */
  readonly workers?: number;
  /**
   * Called when background work (compaction, garbage collection, a spill's file removal) fails; it
   * is retried by its next trigger, and a partition file found damaged is left out of compaction
   * from then on (reads of its rows fail with `Corrupt` naming it). The default emits a process
   * warning (`HaloclineWarning`), which Node prints to stderr.
   */
  readonly onBackgroundError?: (error: Error, task: string) => void;
}

const defaults: EngineOptions = {
  partitionRows: 1 << 20,
  inlineRows: 1 << 17,
  compactRun: 4,
  cacheBytes: 1 << 30,
  // a quarter of a partition: below that a spill is a delta compaction merges again (`pickRun`)
  spillRows: 1 << 18,
};

/**
 * Opens (creating if needed) a store directory.
 * @example
 * const store = await openStore({ path: './data' }); const t = store.table('ctd'); ... await store.close()
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (!options || typeof options.path !== 'string' || options.path === '') {
    throw new HaloclineError('InvalidArgument', 'openStore needs { path }');
  }
  const engine = resolveOptions(options);
  await mkdir(join(options.path, 'meta'), { recursive: true });
  const meta = await openLmdbMetaStore(join(options.path, 'meta'));
  try {
    await checkFormat(meta, options.path);
  } catch (e) {
    await meta.close();
    throw e;
  }
  const blobs = new LocalBlobStore(options.path);
  const readers = await Readers.open(options.path).catch(async (e: unknown) => {
    await meta.close();
    throw e;
  });
  await removeOrphans(meta, blobs, readers);
  const workers = options.workers ?? availableParallelism();
  // the part writer's isolate compiles on its own low-priority thread (exec/isolates.ts), the scan workers' on V8's threads
  const writer = workers > 0 ? await startIsolates(() => new PartWriter(options.path), (w) => w.threads, true) : null;
  const pool = workers > 0 ? await startIsolates(() => new PoolExecutor(workers), (p) => p.threads) : null;
  if (writer && pool) {
    writer.helper = (task) => pool.runWrite(task);
    writer.helperThreads = pool.concurrency;
  }
  const store = new OpenStore(meta, blobs, pool, engine, readers, writer, options.onBackgroundError ?? warnBackgroundError);
  store.collectGarbage();
  return new Store(store);
}

/** An open store: hands out table handles. */
export class Store {
  /** @internal */
  constructor(private readonly ctx: OpenStore) {}

  /** A handle on the table `name` (no I/O; the table need not exist yet). */
  table(name: string): Table {
    if (typeof name !== 'string' || name.length === 0 || name.length > 512) {
      throw new HaloclineError('InvalidArgument', 'a table name is a non-empty string of at most 512 characters', { table: String(name) });
    }
    return new Table(this.ctx, name);
  }

  /** Names of the tables that have a schema. */
  tables(): string[] {
    this.ctx.checkOpen();
    return this.ctx.meta.range<TableRecord>(tablePrefix).map(([, t]) => t.name);
  }

  /**
   * Resolves once the background work running now (compaction after writes, garbage collection) and
   * any work it starts has finished, e.g. before timing reads after a bulk load.
   */
  async idle(): Promise<void> {
    await this.ctx.idle();
  }

  /** Waits for background work, stops the workers and closes the metadata store. */
  async close(): Promise<void> {
    await this.ctx.close();
  }
}

class OpenStore implements StoreContext {
  readonly cache: ColumnCache;
  readonly snapshots = new Snapshots();
  readonly reads = new ReadActivity();
  readonly inline: Executor = new InlineExecutor();
  private readonly schemas = new Map<string, Schema>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;
  private collecting: { again: boolean } | null = null;
  readonly damaged = new Set<string>();

  constructor(
    readonly meta: MetaStore,
    readonly blobs: LocalBlobStore,
    readonly pool: Executor | null,
    readonly options: EngineOptions,
    private readonly readers: Readers,
    readonly partWriter: PartWriter | null,
    private readonly onBackgroundError: (error: Error, task: string) => void,
  ) {
    this.cache = new ColumnCache(options.cacheBytes);
    readers.pins = (table) => this.snapshots.minPinned(table);
  }

  get token(): string {
    return this.readers.token;
  }

  pin(tableId: string, version: number): () => void {
    const release = this.snapshots.pin(tableId, version);
    if (this.readers.ensure(tableId, version)) this.meta.refreshRead();
    return release;
  }

  schemaOf(record: TableRecord): Schema {
    const key = `${record.id}:${record.schemaVersion ?? 0}`;
    const cached = this.schemas.get(key);
    if (cached) return cached;
    const schema = decodeSchema(Buffer.from(record.schema, 'base64'));
    this.schemas.set(key, schema);
    return schema;
  }

  checkOpen(): void {
    if (this.closed) throw new HaloclineError('Closed', 'the store is closed');
  }

  background(name: string, work: () => Promise<void>): void {
    const p: Promise<void> = work()
      .catch((e: unknown) => this.report(e, name)) // retried by the next trigger; a crash leaves only orphans
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  report(error: unknown, task: string): void {
    // work cut short by close() is not a failure
    if (isHaloclineError(error, 'Closed')) return;
    try {
      this.onBackgroundError(error instanceof Error ? error : new Error(String(error)), task);
    } catch {
      // a throwing handler must not turn background work into an unhandled rejection
    }
  }

  collectGarbage(): void {
    if (this.closed) return;
    if (this.collecting) {
      this.collecting.again = true;
      return;
    }
    const state: { again: boolean } = (this.collecting = { again: true });
    const floor = (table: string) => Math.min(this.snapshots.minPinned(table), this.readers.othersFloor(table));
    this.background('collect garbage', async () => {
      try {
        while (state.again) {
          state.again = false;
          await collectGarbage(this, floor);
        }
      } finally {
        this.collecting = null;
      }
    });
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.idle();
    this.closed = true;
    await this.pool?.close();
    await this.partWriter?.close();
    await this.readers.close();
    await this.meta.close();
  }
}

/** The default `onBackgroundError`: a process warning `HaloclineWarning` (with the error's code), which Node prints to stderr. */
export function warnBackgroundError(error: Error, task: string): void {
  process.emitWarning(`${task}: ${error.message}`, { type: 'HaloclineWarning', code: isHaloclineError(error) ? error.code : undefined });
}

function resolveOptions(options: StoreOptions): EngineOptions {
  const out = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof EngineOptions)[]) {
    const v = options[key];
    if (v === undefined) continue;
    if (!Number.isInteger(v) || v < 1) throw new HaloclineError('InvalidArgument', `option ${key} must be a positive integer, got ${String(v)}`);
    out[key] = v;
  }
  if (options.onBackgroundError !== undefined && typeof options.onBackgroundError !== 'function') {
    throw new HaloclineError('InvalidArgument', `option onBackgroundError must be a function, got ${typeof options.onBackgroundError}`);
  }
  if (options.workers !== undefined && (!Number.isInteger(options.workers) || options.workers < 0)) {
    throw new HaloclineError('InvalidArgument', `option workers must be a non-negative integer, got ${String(options.workers)}`);
  }
  return out;
}

async function checkFormat(meta: MetaStore, path: string): Promise<void> {
  const format = meta.get<{ magic: string; version: number }>(STORE_KEY);
  if (!format) {
    await meta.write((tx) => {
      if (!tx.get(STORE_KEY)) tx.put(STORE_KEY, STORE_FORMAT);
    });
    return;
  }
  if (format.magic !== STORE_FORMAT.magic) throw new HaloclineError('Corrupt', `${path} is not a Halocline store`, { path });
  if (!READABLE_FORMATS.includes(format.version)) {
    throw new HaloclineError('Corrupt', `${path}: got a v${format.version} store, expected v${READABLE_FORMATS.join(' or v')}`, { path });
  }
  if (format.version !== STORE_FORMAT.version) await meta.write((tx) => tx.put(STORE_KEY, STORE_FORMAT));
}
