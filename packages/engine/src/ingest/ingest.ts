// Ingest of a stored file into its table: pick the reader, decide the schema (the table's, or one
// created from the file), stream conformed batches into partitions, and commit once at the end.
import type { Schema } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { HaloclineError, isHaloclineError } from '../errors.js';
import type { RawRecord } from '../raw/entry.js';
import { type PartRecord, type TableRecord, partPrefix, tableKey } from '../storage/records.js';
import { commit } from '../write/commit.js';
import { type WrittenPart, removeParts } from '../write/partition.js';
import { scheduleCompaction } from '../write/compact.js';
import { type ColumnMatch, createdSchema, matchColumns } from './columns.js';
import { conformFileBatch } from './conform.js';
import { detectFormat, type FileFormat, openSource } from './format.js';
import { newTableId, replaceTable } from './replace.js';
import { PartSink } from './sink.js';
import type { FileSource } from './source.js';

/** How an ingest treats the table's rows: keep them, replace them, or recreate the table from the file. */
export type IngestMode = 'append' | 'truncate' | 'drop';

/** Progress as batches land: rows converted so far, file bytes read so far, and the file size. */
export interface IngestProgress {
  readonly rows: number;
  readonly bytes: number;
  readonly totalBytes: number;
}

/** Options of `ingest`. */
export interface IngestOptions {
  /** Default `append`. A table that does not exist is created from the file whatever the mode. */
  readonly opt?: IngestMode;
  readonly onProgress?: (p: IngestProgress) => void;
}

/** What an ingest did. */
export interface IngestResult {
  readonly rows: number;
  readonly format: FileFormat;
  /** True when the table was created (or, with `drop`, recreated) from the file. */
  readonly created: boolean;
}

/**
 * Ingests `file` into table `name` as one atomic commit; on any failure the written partition
 * files are removed and the table is exactly as it was.
 */
export async function ingestRaw(ctx: StoreContext, name: string, file: RawRecord, options: IngestOptions = {}): Promise<IngestResult> {
  const started = performance.now();
  const mode = options.opt ?? 'append';
  if (mode !== 'append' && mode !== 'truncate' && mode !== 'drop') {
    throw new HaloclineError('InvalidArgument', `ingest opt must be append, truncate or drop, got ${String(mode)}`, { table: name, value: mode });
  }
  const format = await detectFormat(ctx, file);
  const source = openSource(ctx, file, format);
  const where = { table: name, file: file.name };
  try {
    const existing = ctx.meta.get<TableRecord>(tableKey(name));
    const create = !existing || mode === 'drop';
    const tableId = create ? newTableId() : existing!.id;
    const names = await source.names();
    let schema = create ? createdSchema(await source.schema(), where) : ctx.schemaOf(existing);
    let written: WrittenPart[];
    let rows: number;
    try {
      ({ written, rows } = await writeAll(ctx, source, schema, matchColumns(names, schema, where), tableId, file, options, where));
    } catch (e) {
      // a created table's types came from a sample and a later value did not fit: infer over every row
      if (!create || !source.wholeSchema || !isHaloclineError(e, 'InvalidData')) throw e;
      const whole = createdSchema(await source.wholeSchema(), where);
      if (sameTypes(whole, schema)) throw e;
      schema = whole;
      ({ written, rows } = await writeAll(ctx, source, schema, matchColumns(names, schema, where), tableId, file, options, where));
    }
    try {
      if (create) {
        await replaceTable(ctx, name, existing?.id ?? null, { id: tableId, schema }, written, { kind: 'ingest', started });
      } else if (mode === 'truncate') {
        const remove = ctx.meta.range<PartRecord>(partPrefix(tableId)).map(([, p]) => p);
        await commit(ctx, name, tableId, { add: written, remove, schemaVersion: existing!.schemaVersion ?? 0, trace: { kind: 'ingest', started } });
      } else if (written.length > 0) {
        await commit(ctx, name, tableId, { add: written, remove: [], schemaVersion: existing!.schemaVersion ?? 0, trace: { kind: 'ingest', started } });
        scheduleCompaction(ctx, name, tableId);
      }
    } catch (e) {
      await removeParts(ctx, written);
      throw e;
    }
    return { rows, format, created: create };
  } catch (e) {
    throw inFile(e, where);
  } finally {
    await source.close();
  }
}

// Converts and writes every row of the file as partitions of `tableId`; nothing is committed, and
// on a failure the partitions written so far are removed.
async function writeAll(
  ctx: StoreContext,
  source: FileSource,
  schema: Schema,
  match: ColumnMatch,
  tableId: string,
  file: RawRecord,
  options: IngestOptions,
  where: { table: string },
): Promise<{ written: WrittenPart[]; rows: number }> {
  const sink = new PartSink(ctx, tableId, schema);
  let rows = 0;
  try {
    if (source.partitions) {
      // the reader conforms and gathers partitions itself (Parquet: in its worker threads)
      const laidOut = (size: number, placed: readonly (Uint8Array | null)[]) => sink.laidOut(size, placed);
      for await (const step of source.partitions(schema, match.rename, ctx.options.partitionRows, where.table, laidOut)) {
        rows = step.rows;
        if (step.filled) await sink.addFilled(step.filled, step.file);
        else options.onProgress?.({ rows, bytes: step.bytes, totalBytes: file.size });
      }
      return { written: await sink.finish(), rows };
    }
    if (!source.batches) throw new Error('a file reader offers neither batches nor partitions'); // a programming error
    for await (const { batch, bytes } of source.batches(match.types)) {
      // rows still to come, guessed from the bytes read so far (sizes the partition's buffers)
      const expected = bytes > 0 ? Math.ceil(((rows + batch.numRows) * file.size * 17) / (bytes * 16)) - rows : 0;
      await sink.add(conformFileBatch(schema, batch, match.rename, rows, where.table), expected);
      rows += batch.numRows;
      options.onProgress?.({ rows, bytes, totalBytes: file.size });
    }
    return { written: await sink.finish(), rows };
  } catch (e) {
    await sink.discard();
    throw e;
  }
}

function sameTypes(a: Schema, b: Schema): boolean {
  return a.fields.length === b.fields.length && a.fields.every((f, i) => String(f.type) === String(b.fields[i]!.type));
}

// Errors say which file they are about (rows are 0-based data rows of the file).
function inFile(e: unknown, where: { table: string; file: string }): unknown {
  if (!isHaloclineError(e) || e.message.startsWith(`file "${where.file}"`)) return e;
  const { table, column, row, value } = e;
  const context = Object.fromEntries(Object.entries({ table, column, row, value, path: where.file }).filter(([, v]) => v !== undefined));
  return new HaloclineError(e.code, `file "${where.file}": ${e.message}`, context, { cause: e });
}
