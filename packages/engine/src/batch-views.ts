// The views every cursor derives from its batch stream: data frames, rows, pages, all rows.
import { type RecordBatch, Table as ArrowTable } from 'apache-arrow';
import { batchToRows } from './data/rows.js';
import { HaloclineError } from './errors.js';

/** A row as a plain object (int64 as bigint, timestamps and dates as Date). */
export type Row = Record<string, unknown>;

/**
 * A cursor over record batches: subclasses give `batches()` (the engine's scan, or the HTTP client's
 * continuation-following stream) and inherit the other iteration modes, so both behave alike.
 */
export abstract class BatchViews {
  /** Arrow record batches as they are produced, in row order. */
  abstract batches(): AsyncGenerator<RecordBatch>;

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
      throw new HaloclineError('InvalidArgument', `page size must be a non-negative integer, got ${String(size)}`, this.errorContext());
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

  /** What errors of this cursor name (its table, when known). */
  protected errorContext(): { table?: string } {
    return {};
  }
}
