// A lazy select: nothing runs until one of its iterators is iterated; each iteration is a fresh snapshot.
import { type RecordBatch, type Schema, Table as ArrowTable } from 'apache-arrow';
import type { CursorApi } from './api.js';
import type { StoreContext } from './context.js';
import { batchToRows } from './data/rows.js';
import { HaloclineError } from './errors.js';
import { flatgeobufChunks, type GeoJsonFeature, geojsonFeatures } from './geo/export.js';
import { scanBatches, scanCount } from './read/execute.js';
import { plan, type SelectOptions } from './read/plan.js';
import { type Snapshot, openSnapshot } from './read/snapshot.js';

/** A row as a plain object (int64 as bigint, timestamps and dates as Date). */
export type Row = Record<string, unknown>;

/**
 * The result of `table.select(...)`. Iterate it one way per pass.
 * @example
 * for await (const row of t.select('depth > $d', { vars: { d: 100 } }).rows()) console.log(row.temp)
 */
export class Cursor implements CursorApi {
  constructor(
    private readonly ctx: StoreContext,
    private readonly table: string,
    private readonly filter: string | undefined,
    private readonly options: SelectOptions = {},
    /** Opens the snapshot each pass reads (a transaction passes its own view). */
    private readonly open: () => Snapshot = () => openSnapshot(ctx, table),
  ) {}

  /** Arrow record batches as they are produced, in row order. */
  async *batches(): AsyncGenerator<RecordBatch> {
    yield* this.scan((_schema, batches) => batches);
  }

  /**
   * GeoJSON Feature objects: the geometry of the first geometry column (or lat/lon pair) of the
   * result, the other columns as properties. InvalidArgument when the result has no such column.
   */
  async *geojson(): AsyncGenerator<GeoJsonFeature> {
    yield* this.scan((schema, batches) => geojsonFeatures(schema, batches, this.table));
  }

  /** The result as a FlatGeobuf file, streamed in chunks (header first, no spatial index). */
  async *flatgeobuf(): AsyncGenerator<Uint8Array> {
    yield* this.scan((schema, batches) => flatgeobufChunks(schema, batches, this.table));
  }

  private async *scan<T>(use: (schema: Schema, batches: AsyncGenerator<RecordBatch>) => AsyncGenerator<T>): AsyncGenerator<T> {
    const snap = this.open();
    try {
      const p = plan(snap.schema, this.table, this.filter, this.options);
      yield* use(p.output, scanBatches(this.ctx, snap, p));
    } finally {
      snap.release();
    }
  }

  /** One arrow Table (the JS data frame) per chunk. */
  async *dataframes(): AsyncGenerator<ArrowTable> {
    for await (const b of this.batches()) yield new ArrowTable([b]);
  }

  /** Rows as plain objects. */
  async *rows(): AsyncGenerator<Row> {
    for await (const b of this.batches()) yield* batchToRows(b);
  }

  /** Arrays of `size` rows (the last may be shorter); `size` 0 gives one page per chunk as it arrives. */
  async *pages(size: number): AsyncGenerator<Row[]> {
    if (!Number.isInteger(size) || size < 0) {
      throw new HaloclineError('InvalidArgument', `page size must be a non-negative integer, got ${String(size)}`, { table: this.table });
    }
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

  /** Every row, as an array. */
  async all(): Promise<Row[]> {
    const out: Row[] = [];
    for await (const b of this.batches()) for (const r of batchToRows(b)) out.push(r);
    return out;
  }

  /** The number of matching rows, without materialising them. */
  async count(): Promise<number> {
    const snap = this.open();
    try {
      return await scanCount(this.ctx, snap, plan(snap.schema, this.table, this.filter, this.options));
    } finally {
      snap.release();
    }
  }
}
