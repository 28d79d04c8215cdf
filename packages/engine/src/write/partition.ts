// Cuts validated record batches into partitions and writes each as an immutable file.
import { randomBytes } from 'node:crypto';
import type { Data, RecordBatch, Schema } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import type { ZoneMaps, ZoneStats } from '../expr/kernel.js';
import { type Alloc, concatData } from '../storage/concat.js';
import { type SegmentRef, encodeFooter, encodePrefix, padding, piecesCrc, segmentPieces } from '../storage/format.js';
import { type PartRecord, partFile } from '../storage/records.js';
import { writeFileDurably } from '../storage/localfs.js';
import { zoneStats } from '../storage/zonemap.js';
import { derivedColumns } from '../geo/bbox.js';
import { type MergeInput, type PartWriter, sharedData } from './part-writer.js';
import { hotColumns, warmColumns } from '../read/load.js';
import { sharedBuffer } from '../exec/shared-memory.js';

/** A written partition file, not yet committed: its record lacks `seq` and `added`. */
export type WrittenPart = Omit<PartRecord, 'seq' | 'added'>;

/**
 * Rows [start, end) of a list of batches, as one contiguous chunk per column. With `shared`, a
 * column joined from several chunks is a new chunk in SharedArrayBuffers that nobody else holds
 * (`isPrivateCopy`): the part writer thread reads it in place and the cache may keep it, no copy.
 * With `lease`, a column joined from several chunks lands in buffers from it instead (a pool's:
 * memory this process touched already).
 */
export function sliceColumns(schema: Schema, batches: readonly RecordBatch[], start: number, end: number, shared = false, lease?: Alloc): Data[] {
  return sliceChunks(schema, batches, start, end).map((chunks, col) => {
    const type = schema.fields[col]!.type;
    if (lease) return concatData(type, chunks, lease);
    if (!shared) return concatData(type, chunks);
    const joined = concatData(type, chunks, sharedBuffer);
    if (joined !== chunks[0]) privateCopies.add(joined);
    return joined;
  });
}

/** Rows [start, end) of a list of batches: per column, the chunks that hold them (views, no copy). */
export function sliceChunks(schema: Schema, batches: readonly RecordBatch[], start: number, end: number): Data[][] {
  return schema.fields.map((_field, col) => {
    const chunks: Data[] = [];
    let at = 0;
    for (const b of batches) {
      const from = Math.max(start, at);
      const to = Math.min(end, at + b.numRows);
      if (from < to) chunks.push(b.data.children[col]!.slice(from - at, to - from));
      at += b.numRows;
    }
    return chunks;
  });
}

// chunks `sliceColumns` made in shared memory for its caller alone
const privateCopies = new WeakSet<Data>();

/** True when `data` is a shared copy `sliceColumns` made (no one else holds or writes its buffers). */
export const isPrivateCopy = (data: Data): boolean => privateCopies.has(data);

/**
 * Rows from which a write that would otherwise wait for the part writer, or share its rows with it,
 * goes to a scan worker instead (`PartWriter.helper`): a transaction's tail at commit is halved with
 * one (`TxState.shareTail`), an insert while the part writer merges is written on one. Fewer rows
 * stay with the part writer, or with the calling thread while it merges: a writer committing small
 * inserts in a loop would otherwise take the scan workers from the readers beside it (W1C in the bench).
 */
export const HELPER_ROWS = 32_768;

/**
 * Writes the rows of `batches` as partitions of at most `partitionRows` rows, durably; on the part
 * writer thread when the store has one, unless `background` is false (then on this thread). With a
 * `claim` (part-writer.ts `Claim`), writes on the thread not started when it is cancelled fail.
 * With `helper` (and `background`), on a scan worker where the part writer has one (`PartWriter.helper`).
 */
export async function writeParts(
  ctx: StoreContext,
  table: string,
  schema: Schema,
  batches: readonly RecordBatch[],
  background = true,
  claim?: Int32Array,
  helper = false,
): Promise<WrittenPart[]> {
  const total = batches.reduce((n, b) => n + b.numRows, 0);
  const count = Math.ceil(total / ctx.options.partitionRows);
  // even cuts, so a 1.1× target insert does not leave a tiny tail partition
  const size = Math.ceil(total / Math.max(count, 1));
  const written: WrittenPart[] = [];
  const onThread = background && !!ctx.partWriter;
  try {
    for (let start = 0; start < total; start += size) {
      const end = Math.min(total, start + size);
      const chunks = onThread ? sliceChunks(schema, batches, start, end) : null;
      // on the part writer, the thread joins the batches' chunks itself
      if (chunks && ctx.partWriter!.accepts(chunks.flat())) {
        written.push(await writeChunks(ctx, ctx.partWriter!, table, schema, chunks, claim, helper));
        continue;
      }
      // joins here land in the part writer's pooled buffers (no fresh pages to fault in), given back
      // once the file is written; with the part writer, as private copies the cache may keep
      const lease = onThread ? undefined : ctx.partWriter?.buffers.lease();
      try {
        const columns = sliceColumns(schema, batches, start, end, onThread, lease?.alloc);
        written.push(await writePart(ctx, table, schema, columns, undefined, background, claim));
      } finally {
        lease?.release();
      }
    }
  } catch (e) {
    await removeParts(ctx, written);
    throw e;
  }
  return written;
}

// one partition of the rows of `chunks` (per column) written on the part writer, which joins them; the
// columns readers keep cached come back as written and go to the cache (see writePart)
async function writeChunks(ctx: StoreContext, writer: PartWriter, table: string, schema: Schema, chunks: readonly (readonly Data[])[], claim: Int32Array | undefined, helper: boolean): Promise<WrittenPart> {
  const id = newPartId(ctx);
  const file = partFile(table, id);
  const rows = chunks[0]?.reduce((n, c) => n + c.length, 0) ?? 0;
  const hot = [...warmedColumns(ctx, table, schema, rows)];
  const { part, warm } = await writer.writeChunks({ id, file, schema, chunks, warm: hot, ...(claim ? { claim } : {}), ...(helper ? { helper } : {}) });
  const written: WrittenPart = { table, file, ...part };
  if (hot.length > 0) warmColumns(ctx, written, hot, warm);
  return written;
}

// the columns of a `rows`-row partition the cache will keep as written (`writePart`): a delta small
// enough to scan inline warms the columns readers of its table keep cached
function warmedColumns(ctx: StoreContext, table: string, schema: Schema, rows: number): Set<string> {
  return rows < ctx.options.inlineRows ? hotColumns(ctx, table, schema.fields.map((f) => f.name)) : new Set();
}

/**
 * Writes one partition file from contiguous columns, plus the hidden columns derived from them
 * (`geo/bbox.ts`: the bounding boxes of geometry columns), which get zone maps like any column.
 * Each column is encoded (its value buffers written as they are, not
 * copied) and its write started before the next column's zone map is computed, so CPU work
 * overlaps the disk. `known` zone maps
 * (by column name, computed as the rows arrived, e.g. by ingest) are used instead of a pass.
 * With `background`, the encoding and the durable write run on the store's low-priority part
 * writer thread when it has one (`part-writer.ts`): appends and compaction leave the cores to scans.
 */
export async function writePart(
  ctx: StoreContext,
  table: string,
  schema: Schema,
  columns: readonly Data[],
  known?: Readonly<Record<string, ZoneStats>>,
  background = false,
  claim?: Int32Array,
): Promise<WrittenPart> {
  const id = newPartId(ctx);
  const file = partFile(table, id);
  if (background && ctx.partWriter?.accepts(columns)) {
    // a delta (small enough to scan inline) is read soon and whole: the columns readers of the table
    // keep cached (`hotColumns`) go to the cache as written (copies: the caller may reuse its
    // buffers), so a reader after the commit does not read them back; the LRU evicts them if nobody does
    const names = schema.fields.map((f) => f.name);
    const hot = warmedColumns(ctx, table, schema, columns[0]?.length ?? 0);
    // cached columns are copies of their own (made by sliceColumns already, or here); others go to the
    // thread as they are when shared, else in its pooled buffers
    const shared = columns.map((c, i) => (hot.has(names[i]!) && !isPrivateCopy(c) ? sharedData(c, true) : c));
    const part: WrittenPart = { table, file, ...(await ctx.partWriter.write({ id, file, schema, columns: shared, known, claim })) };
    const warm = names.flatMap((n, i) => (hot.has(n) ? [i] : []));
    if (warm.length > 0) warmColumns(ctx, part, warm.map((i) => names[i]!), warm.map((i) => shared[i]!));
    return part;
  }
  const writer = await ctx.blobs.create(file);
  try {
    const encoded = await encodePart(id, schema, columns, known, (bytes) => void writer.append(bytes), () => writer.size);
    await writer.commit();
    return { table, file, ...encoded };
  } catch (e) {
    await writer.abort();
    throw e;
  }
}

/**
 * Writes the live rows of partitions `parts` (each without the rows its `deleted` bitmap marks), in
 * order, as one partition file on the part writer thread (which reads them itself); `known` zone
 * maps (merged from the inputs' when no row is dropped) are used instead of a pass. The columns
 * named in `warm` come back as written, in shared memory (`warm`, in that order), for the cache.
 */
export async function mergeParts(
  ctx: StoreContext,
  writer: PartWriter,
  table: string,
  schema: Schema,
  parts: readonly MergeInput[],
  known?: Readonly<Record<string, ZoneStats>>,
  warm: readonly string[] = [],
): Promise<{ written: WrittenPart; warm: { names: string[]; columns: Data[] } }> {
  const id = newPartId(ctx);
  const file = partFile(table, id);
  const names = warm.filter((n) => schema.fields.some((f) => f.name === n));
  const merged = await writer.merge({ id, file, schema, inputs: parts, known, warm: names });
  return { written: { table, file, ...merged.part }, warm: { names, columns: merged.warm } };
}

/** A new partition id: unique, and carries this process's token (a file of a live writer is no orphan). */
export const newPartId = (ctx: StoreContext): string => partIdOf(ctx.token);

/** A new partition id of the process with writer token `token` (on the part writer thread, which has no context). */
export const partIdOf = (token: string): string => `${Date.now().toString(36)}-${token}-${randomBytes(4).toString('hex')}`;

/** Writes the file `file` under `root` from its pieces, durably (`writeFileDurably`; a test's failing stand-in). */
export type WriteFile = (root: string, file: string, chunks: readonly Uint8Array[]) => void;

/**
 * Encodes a partition (`encodePart`) and writes its file durably with synchronous calls, as the part
 * writer thread does: its layout and zone maps.
 */
export async function writeEncoded(
  root: string,
  file: string,
  id: string,
  schema: Schema,
  columns: readonly Data[],
  known?: Readonly<Record<string, ZoneStats>>,
  write: WriteFile = writeFileDurably,
): Promise<EncodedPart> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const encoded = await encodePart(id, schema, columns, known, (bytes) => {
    chunks.push(bytes);
    size += bytes.length;
  }, () => size);
  write(root, file, chunks);
  return encoded;
}

/** A partition file's layout and zone maps, as `encodePart` made them. */
export type EncodedPart = Pick<PartRecord, 'id' | 'rows' | 'bytes' | 'segments' | 'zones'>;

/**
 * Encodes a partition file (prefix, one segment per column and derived column, footer), handing
 * each piece to `emit` as soon as it is made (value buffers as views of the columns, not copies);
 * `size()` is the bytes emitted so far. With `laid` (`laid-out.ts`), the prefix is already written
 * and a column `laid` places itself (its segment's location and CRC) is not emitted. Each segment's
 * CRC-32 is computed from its pieces as they are emitted (the directory and the record keep it).
 */
export async function encodePart(
  id: string,
  schema: Schema,
  columns: readonly Data[],
  known: Readonly<Record<string, ZoneStats>> | undefined,
  emit: (bytes: Uint8Array) => void,
  size: () => number,
  laid?: (name: string, data: Data) => Promise<SegmentRef | undefined>,
): Promise<EncodedPart> {
  const rows = columns[0]?.length ?? 0;
  const zones: Record<string, ZoneStats> = {};
  const segments: SegmentRef[] = [];
  if (!laid) emit(encodePrefix());
  const named = schema.fields.map((field, i) => ({ name: field.name, data: columns[i]!, sameAs: undefined as string | undefined }));
  for (const { name, data, sameAs } of [...named, ...derivedColumns(schema, columns)]) {
    const alias = sameAs === undefined ? undefined : segments.find((s) => s.name === sameAs);
    if (alias) {
      // identical values (point boxes): a second name for the same bytes, read and cached once
      segments.push({ ...alias, name });
      zones[name] = zones[sameAs!]!;
      continue;
    }
    const placed = await laid?.(name, data);
    if (placed) segments.push(placed);
    else {
      // the values are written from the column's own buffers, never copied into one
      const offset = size();
      const pieces = segmentPieces(name, data);
      for (const piece of pieces) emit(piece);
      segments.push({ name, offset, length: size() - offset, crc: piecesCrc(pieces) });
      emit(padding(size()));
    }
    zones[name] = known?.[name] ?? zoneStats(data);
  }
  emit(encodeFooter(id, rows, segments));
  return { id, rows, bytes: size(), segments, zones: zones as ZoneMaps };
}

/** Best-effort removal of files that were written but will not be committed. */
export async function removeParts(ctx: StoreContext, parts: readonly (Pick<PartRecord, 'file'> & { id?: string })[]): Promise<void> {
  for (const p of parts) if (p.id !== undefined) ctx.cache.dropPart(p.id); // columns warmed when written
  await Promise.all(parts.map((p) => ctx.blobs.remove(p.file).catch(() => undefined)));
}
