// Where conformed batches go during an ingest: cut into partitions and written as they arrive, so
// memory holds at most one partition of rows; nothing is committed here.
import type { RecordBatch, Schema } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { makeBatch } from '../data/layout.js';
import { type WrittenPart, removeParts, sliceColumns, writePart } from '../write/partition.js';

/** Collects batches of `schema` and writes a partition of `partitionRows` rows whenever one is full. */
export class PartSink {
  readonly written: WrittenPart[] = [];
  private buffered: RecordBatch[] = [];
  private rows = 0;

  constructor(
    private readonly ctx: StoreContext,
    private readonly tableId: string,
    private readonly schema: Schema,
  ) {}

  /** Adds a batch; writes full partitions before resolving. */
  async add(batch: RecordBatch): Promise<void> {
    if (batch.numRows === 0) return;
    this.buffered.push(batch);
    this.rows += batch.numRows;
    const size = this.ctx.options.partitionRows;
    while (this.rows >= size) {
      await this.write(size);
      const rest = this.rows - size;
      const tail = rest > 0 ? [makeBatch(this.schema, sliceColumns(this.schema, this.buffered, size, this.rows), rest)] : [];
      this.buffered = tail;
      this.rows = rest;
    }
  }

  /** Writes the rows still buffered; returns every written partition. */
  async finish(): Promise<WrittenPart[]> {
    if (this.rows > 0) await this.write(this.rows);
    this.buffered = [];
    this.rows = 0;
    return this.written;
  }

  /** Removes every file written so far (the ingest failed). */
  async discard(): Promise<void> {
    await removeParts(this.ctx, this.written);
    this.written.length = 0;
  }

  private async write(rows: number): Promise<void> {
    const columns = sliceColumns(this.schema, this.buffered, 0, rows);
    this.written.push(await writePart(this.ctx, this.tableId, this.schema, columns));
  }
}
