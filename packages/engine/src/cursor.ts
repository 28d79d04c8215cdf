// A lazy select: nothing runs until one of its iterators is iterated; each iteration is a fresh snapshot.
import type { RecordBatch, Schema } from 'apache-arrow';
import type { CursorApi } from './api.js';
import { BatchViews } from './batch-views.js';
import type { StoreContext } from './context.js';
import { flatgeobufChunks, type GeoJsonFeature, geojsonFeatures } from './geo/export.js';
import { scanBatches, scanCount } from './read/execute.js';
import { plan, type SelectOptions } from './read/plan.js';
import { type Snapshot, openSnapshot } from './read/snapshot.js';

export type { Row } from './batch-views.js';

/**
 * The result of `table.select(...)`. Iterate it one way per pass.
 * @example
 * for await (const row of t.select('depth > $d', { vars: { d: 100 } }).rows()) console.log(row.temp)
 */
export class Cursor extends BatchViews implements CursorApi {
  constructor(
    private readonly ctx: StoreContext,
    private readonly table: string,
    private readonly filter: string | undefined,
    private readonly options: SelectOptions = {},
    /** Opens the snapshot each pass reads (a transaction passes its own view). */
    private readonly open: () => Snapshot = () => openSnapshot(ctx, table),
  ) {
    super();
  }

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

  protected override errorContext(): { table: string } {
    return { table: this.table };
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
