// CSV ingest: the first record is the header. A created table's types are inferred from a sample
// (the first SAMPLE_ROWS data rows); when a later value does not fit, ingest asks for wholeSchema()
// (a pass over every row) and retries. Rows are tokenized as bytes and converted in parallel by
// workers, a block of whole records each (cut at newlines outside quotes, see blocks.ts); a small
// file, or the rest of a file from a block the tokenizer leaves (malformed quoting, CR-only line
// ends), is parsed here by Papa Parse, in one sequential pass (which reports the malformed record).
import { availableParallelism } from 'node:os';
import { Data, type DataType, Field, type RecordBatch, Schema, Utf8 } from 'apache-arrow';
import type { StoreContext } from '../../context.js';
import { RowError, invalidData } from '../../data/fail.js';
import { makeBatch } from '../../data/layout.js';
import { HaloclineError } from '../../errors.js';
import type { RawRecord } from '../../raw/entry.js';
import type { FileSource, SourceBatch } from '../source.js';
import { type Block, dataStart, recordBlocks } from './blocks.js';
import { textColumn } from './convert.js';
import { ColumnGuess } from './infer.js';
import { ParsePool } from './pool.js';
import type { ParseReply } from './protocol.js';
import { type RowChunk, csvChunks } from './rows.js';

/** Rows per batch of the sequential pass (small enough for the rows to die young). */
const CHUNK_ROWS = 8192;
/** Data rows the types of a created table are inferred from. */
export const SAMPLE_ROWS = 65536;
/** A file smaller than this is parsed sequentially (starting workers would cost more). */
const PARALLEL_BYTES = 1 << 21;
/** Blocks being parsed at once, and parsing workers (one per core; the main thread mostly writes). */
const WINDOW = 4;
const WORKERS = Math.max(1, Math.min(4, availableParallelism()));

/** Reads a stored CSV file (UTF-8, comma-separated, header row first). */
export class CsvSource implements FileSource {
  private header: Promise<string[]> | undefined;
  private readonly passes = new Set<AsyncGenerator<unknown, unknown>>();
  private pool: ParsePool | undefined;

  constructor(
    private readonly ctx: StoreContext,
    private readonly file: RawRecord,
  ) {}

  names(): Promise<string[]> {
    this.header ??= (async () => {
      for await (const { rows } of this.track(csvChunks(this.ctx.blobs.stream(this.file.file), 1))) return headerNames(rows[0]!);
      throw new HaloclineError('InvalidData', 'the CSV file is empty; it needs a header row');
    })();
    return this.header;
  }

  /** Types inferred from the first SAMPLE_ROWS data rows. */
  async schema(): Promise<Schema> {
    return this.infer(SAMPLE_ROWS);
  }

  /** Types inferred from every row (a separate pass over the file). */
  async wholeSchema(): Promise<Schema> {
    return this.infer(Number.POSITIVE_INFINITY);
  }

  async *batches(types: ReadonlyMap<string, DataType>): AsyncGenerator<SourceBatch> {
    const names = await this.names();
    const schema = new Schema(names.map((name) => new Field(name, types.get(name) ?? new Utf8(), true)));
    const head = Buffer.alloc(Math.min(this.file.size, 1 << 16));
    await this.ctx.blobs.read(this.file.file, 0, head);
    const start = this.file.size >= PARALLEL_BYTES ? dataStart(head) : null;
    let rows = 0;
    let rest: number | null = -1; // the offset the sequential pass starts at, -1 for after the header
    if (start !== null) {
      const read = (offset: number, into: Uint8Array) => this.ctx.blobs.read(this.file.file, offset, into);
      const blocks = this.track(recordBlocks(read, start, this.file.size));
      const pending: { reply: Promise<ParseReply>; block: Block }[] = [];
      for (;;) {
        const next = await blocks.next();
        if (next.done) rest = next.value;
        else {
          this.pool ??= new ParsePool(schema, WORKERS);
          const reply = this.pool.parse({ bytes: next.value.bytes });
          reply.catch(() => undefined); // awaited in order below; a later block may fail first
          pending.push({ reply, block: next.value });
        }
        let split = false;
        while (pending.length >= (next.done ? 1 : WINDOW)) {
          const { reply, block } = pending.shift()!;
          const answer = await reply;
          if ('split' in answer) {
            // quoting not well formed in this block: parse from its start on, sequentially
            rest = block.start;
            split = true;
            break;
          }
          const batch = this.fromReply(schema, answer, rows);
          rows += batch.numRows;
          yield { batch, bytes: block.end };
        }
        if (split) {
          pending.length = 0;
          await blocks.return(null);
          break;
        }
        if (next.done) break;
      }
      if (rest === null) return;
    }
    for await (const chunk of this.sequential(rest, rows)) {
      for (let i = 0; i < chunk.rows.length; i++) checkWidth(chunk.rows[i]!, names.length, rows + i);
      const batch = makeBatch(schema, schema.fields.map((f, c) => this.column(chunk.rows, c, f, rows)), chunk.rows.length);
      rows += batch.numRows;
      yield { batch, bytes: chunk.bytes };
    }
  }

  async close(): Promise<void> {
    for (const pass of this.passes) await pass.return(undefined);
    this.passes.clear();
    await this.pool?.close();
    this.pool = undefined;
  }

  private async infer(limit: number): Promise<Schema> {
    const names = await this.names();
    const guesses = names.map(() => new ColumnGuess());
    let row = 0;
    for await (const { rows } of this.sequential(-1)) {
      for (const r of rows) {
        checkWidth(r, names.length, row++);
        for (let c = 0; c < guesses.length; c++) guesses[c]!.see(r[c]!);
      }
      if (row >= limit) break;
    }
    return new Schema(names.map((name, c) => new Field(name, guesses[c]!.type(), true)));
  }

  private fromReply(schema: Schema, reply: ParseReply, first: number): RecordBatch {
    if ('failure' in reply || 'split' in reply) throw new Error(`CSV parsing failed: ${'failure' in reply ? reply.failure : 'unexpected split'}`);
    if ('bad' in reply) {
      const { row, col, message, value } = reply.bad;
      if (col < 0) throw new HaloclineError('InvalidData', `row ${first + row}: ${message}`, { row: first + row });
      throw invalidData({}, message, { row: first + row, column: schema.fields[col]!.name, value });
    }
    const children = reply.columns.map((b, c) => {
      const type = schema.fields[c]!.type;
      return new Data(type, 0, reply.rows, b.nullCount, [b.offsets, b.values, b.nullCount > 0 ? b.bitmap : undefined] as never);
    });
    return makeBatch(schema, children, reply.rows);
  }

  private column(rows: readonly string[][], c: number, f: Field, first: number): Data {
    const texts = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) texts[i] = rows[i]![c]!;
    try {
      return textColumn(texts, f.name, f.type);
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      throw invalidData({}, e.message, { row: first + e.row, column: f.name, value: e.value });
    }
  }

  // data rows chunk by chunk from `offset` (a record boundary past the header, `rowsBefore` data rows
  // in), or -1: the header skipped
  private async *sequential(offset: number, rowsBefore = 0): AsyncGenerator<RowChunk> {
    const range = offset < 0 ? undefined : { start: offset, end: this.file.size - 1 };
    if (range && range.start >= this.file.size) return;
    let header = offset < 0;
    const records = range ? rowsBefore + 1 : 0;
    for await (const chunk of this.track(csvChunks(this.ctx.blobs.stream(this.file.file, range), CHUNK_ROWS, records))) {
      const rows = header ? chunk.rows.slice(1) : chunk.rows;
      header = false;
      if (rows.length > 0) yield { rows, bytes: (range?.start ?? 0) + chunk.bytes };
    }
  }

  private track<T, R>(pass: AsyncGenerator<T, R>): AsyncGenerator<T, R> {
    this.passes.add(pass);
    return pass;
  }
}

function checkWidth(r: readonly string[], width: number, row: number): void {
  if (r.length === width) return;
  throw new HaloclineError('InvalidData', `row ${row}: ${r.length} fields, but the header has ${width}`, { row });
}

function headerNames(raw: readonly string[]): string[] {
  const seen = new Set<string>();
  return raw.map((field, c) => {
    const name = field.trim() === '' ? `column_${c + 1}` : field;
    if (seen.has(name)) throw new HaloclineError('InvalidData', `the header names column "${name}" twice`, { column: name });
    seen.add(name);
    return name;
  });
}
