// Where conformed batches go during an ingest: copied into the partition being filled as they
// arrive (zone maps merged on the way), and each full partition written while the next fills, so
// memory holds about two partitions of rows whatever the file size; nothing is committed here.
import type { RecordBatch, Schema } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import type { ZoneStats } from '../expr/kernel.js';
import { LaidOutPart } from '../write/laid-out.js';
import { type WrittenPart, removeParts, writePart } from '../write/partition.js';
import { ColumnAccumulator } from './accumulate.js';
import type { FilledColumn } from './source.js';

/** Collects batches of `schema` and writes a partition of `partitionRows` rows whenever one is full. */
export class PartSink {
  readonly written: WrittenPart[] = [];
  private columns: ColumnAccumulator[];
  private rows = 0;
  /** The partition being written, at most one at a time. */
  private writing: Promise<void> = Promise.resolve();
  /** Partition files opened by `laidOut` and not yet finished. */
  private readonly laid = new Set<LaidOutPart>();

  constructor(
    private readonly ctx: StoreContext,
    private readonly tableId: string,
    private readonly schema: Schema,
  ) {
    this.columns = this.fresh();
  }

  /**
   * Adds a batch; resolves once it is copied (a full partition's write may still be running).
   * `expected` is a guess of the rows still to come, this batch included (sizes the partition's buffers).
   */
  async add(batch: RecordBatch, expected = 0): Promise<void> {
    const size = this.ctx.options.partitionRows;
    for (let at = 0; at < batch.numRows; ) {
      if (this.rows === 0) {
        const rows = Math.min(size, Math.max(batch.numRows - at, expected - at));
        for (const c of this.columns) c.reserve(rows);
      }
      const take = Math.min(batch.numRows - at, size - this.rows);
      for (let c = 0; c < this.columns.length; c++) {
        const chunk = batch.data.children[c]!;
        this.columns[c]!.append(take === batch.numRows ? chunk : chunk.slice(at, take));
      }
      this.rows += take;
      at += take;
      if (this.rows === size) await this.flush();
    }
  }

  /**
   * Opens the file of a partition of `rows` rows that is filled elsewhere: its fixed-width columns
   * (`placed` buffers) are written as their rows land; `addFilled` with it finishes the file.
   */
  laidOut(rows: number, placed: readonly (Uint8Array | null)[]): LaidOutPart {
    const part = new LaidOutPart(this.ctx, this.tableId, this.schema, rows, placed);
    this.laid.add(part);
    return part;
  }

  /**
   * Writes a partition filled elsewhere (columns of the schema, with their zone maps), once the
   * previous write is done; resolves when its write has started. Not mixed with `add`. With
   * `file` (from `laidOut`), what that file lacks is written into it.
   */
  async addFilled(filled: readonly FilledColumn[], file?: LaidOutPart): Promise<void> {
    await this.write(filled, file);
  }

  /** Writes the rows still held; returns every written partition. */
  async finish(): Promise<WrittenPart[]> {
    if (this.rows > 0) await this.flush();
    await this.writing;
    return this.written;
  }

  /** Waits for a write in progress, then removes every file written so far (the ingest failed). */
  async discard(): Promise<void> {
    await this.writing.catch(() => undefined);
    await Promise.all([...this.laid].map((part) => part.abort()));
    this.laid.clear();
    await removeParts(this.ctx, this.written);
    this.written.length = 0;
  }

  // starts writing the filled partition once the previous write is done
  private async flush(): Promise<void> {
    const filled = this.columns.map((c) => c.finish());
    this.columns = this.fresh();
    this.rows = 0;
    await this.write(filled);
  }

  private async write(filled: readonly FilledColumn[], file?: LaidOutPart): Promise<void> {
    await this.writing;
    const zones: Record<string, ZoneStats> = {};
    this.schema.fields.forEach((f, c) => (zones[f.name] = filled[c]!.zone));
    const data = filled.map((f) => f.data);
    const crcs = filled.map((f) => f.crc);
    const written = file ? file.finish(data, zones, crcs).then((part) => this.release(file, part)).finally(() => this.laid.delete(file)) : writePart(this.ctx, this.tableId, this.schema, data, zones);
    this.writing = written.then((part) => void this.written.push(part));
    this.writing.catch(() => undefined); // observed by the next flush, finish or discard
  }

  // a laid-out partition's file is written: its shared buffers (the reader's, from the part
  // writer's pool) are read by nobody any more; after a failure they are left to the GC, as a
  // reader's thread may still be writing into them
  private release(file: LaidOutPart, part: WrittenPart): WrittenPart {
    const pool = this.ctx.partWriter?.buffers;
    if (pool) for (const bytes of file.placed) if (bytes) pool.release(bytes.buffer as SharedArrayBuffer);
    return part;
  }

  private fresh(): ColumnAccumulator[] {
    return this.schema.fields.map((f) => new ColumnAccumulator(f.type));
  }
}
