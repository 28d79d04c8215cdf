// CSV ingest: the first record is the header; types are inferred by a first streaming pass (only
// when a table is created from the file) and values parsed into the target types by a second.
import { type DataType, Field, type RecordBatch, Schema, Utf8 } from 'apache-arrow';
import type { StoreContext } from '../../context.js';
import { RowError, invalidData } from '../../data/fail.js';
import { makeBatch } from '../../data/layout.js';
import { HaloclineError } from '../../errors.js';
import type { RawRecord } from '../../raw/entry.js';
import type { FileSource, SourceBatch } from '../source.js';
import { textColumn } from './convert.js';
import { ColumnGuess } from './infer.js';
import { csvChunks } from './rows.js';

/** Rows per batch handed to ingest. */
const CHUNK_ROWS = 1 << 16;

/** Reads a stored CSV file (UTF-8, comma-separated, header row first). */
export class CsvSource implements FileSource {
  private header: Promise<string[]> | undefined;

  constructor(
    private readonly ctx: StoreContext,
    private readonly file: RawRecord,
  ) {}

  names(): Promise<string[]> {
    this.header ??= this.readHeader();
    return this.header;
  }

  async schema(): Promise<Schema> {
    const names = await this.names();
    const guesses = names.map(() => new ColumnGuess());
    let row = 0;
    for await (const rows of this.records()) {
      for (const r of rows) {
        this.checkWidth(r, names, row++);
        for (let c = 0; c < guesses.length; c++) guesses[c]!.see(r[c]!);
      }
    }
    return new Schema(names.map((name, c) => new Field(name, guesses[c]!.type(), true)));
  }

  async *batches(types: ReadonlyMap<string, DataType>): AsyncGenerator<SourceBatch> {
    const names = await this.names();
    const fields = names.map((name) => new Field(name, types.get(name) ?? new Utf8(), true));
    const schema = new Schema(fields);
    let first = 0;
    for await (const { rows, bytes } of this.chunks()) {
      rows.forEach((r, i) => this.checkWidth(r, names, first + i));
      yield { batch: this.toBatch(schema, rows, first), bytes };
      first += rows.length;
    }
  }

  async close(): Promise<void> {}

  private toBatch(schema: Schema, rows: readonly string[][], first: number): RecordBatch {
    const children = schema.fields.map((f, c) => {
      try {
        return textColumn(rows, c, f.name, f.type);
      } catch (e) {
        if (!(e instanceof RowError)) throw e;
        throw invalidData({}, e.message, { row: first + e.row, column: f.name, value: e.value });
      }
    });
    return makeBatch(schema, children, rows.length);
  }

  private checkWidth(r: readonly string[], names: readonly string[], row: number): void {
    if (r.length === names.length) return;
    throw new HaloclineError('InvalidData', `row ${row}: ${r.length} fields, but the header has ${names.length}`, { row });
  }

  private async readHeader(): Promise<string[]> {
    for await (const { rows } of csvChunks(this.ctx.blobs.stream(this.file.file), 1)) {
      const seen = new Set<string>();
      return rows[0]!.map((raw, c) => {
        const name = raw.trim() === '' ? `column_${c + 1}` : raw;
        if (seen.has(name)) throw new HaloclineError('InvalidData', `the header names column "${name}" twice`, { column: name });
        seen.add(name);
        return name;
      });
    }
    throw new HaloclineError('InvalidData', 'the CSV file is empty; it needs a header row');
  }

  // data rows (the header skipped), chunk by chunk
  private async *chunks(): AsyncGenerator<{ rows: string[][]; bytes: number }> {
    let header = true;
    for await (const chunk of csvChunks(this.ctx.blobs.stream(this.file.file), CHUNK_ROWS)) {
      const rows = header ? chunk.rows.slice(1) : chunk.rows;
      header = false;
      if (rows.length > 0) yield { rows, bytes: chunk.bytes };
    }
  }

  private async *records(): AsyncGenerator<string[][]> {
    for await (const { rows } of this.chunks()) yield rows;
  }
}
