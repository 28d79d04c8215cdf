// Cuts validated record batches into partitions and writes each as an immutable file.
import { randomBytes } from 'node:crypto';
import type { Data, RecordBatch, Schema } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import type { ZoneMaps, ZoneStats } from '../expr/kernel.js';
import { concatData } from '../storage/concat.js';
import { type SegmentRef, encodeFooter, encodePrefix, padding, segmentPieces } from '../storage/format.js';
import { type PartRecord, partFile } from '../storage/records.js';
import { zoneStats } from '../storage/zonemap.js';
import { derivedColumns } from '../geo/bbox.js';

/** A written partition file, not yet committed: its record lacks `seq` and `added`. */
export type WrittenPart = Omit<PartRecord, 'seq' | 'added'>;

/** Rows [start, end) of a list of batches, as one contiguous chunk per column. */
export function sliceColumns(schema: Schema, batches: readonly RecordBatch[], start: number, end: number): Data[] {
  return schema.fields.map((field, col) => {
    const chunks: Data[] = [];
    let at = 0;
    for (const b of batches) {
      const from = Math.max(start, at);
      const to = Math.min(end, at + b.numRows);
      if (from < to) chunks.push(b.getChildAt(col)!.data[0]!.slice(from - at, to - from));
      at += b.numRows;
    }
    return concatData(field.type, chunks);
  });
}

/** Writes the rows of `batches` as partitions of at most `partitionRows` rows, durably. */
export async function writeParts(ctx: StoreContext, table: string, schema: Schema, batches: readonly RecordBatch[]): Promise<WrittenPart[]> {
  const total = batches.reduce((n, b) => n + b.numRows, 0);
  const count = Math.ceil(total / ctx.options.partitionRows);
  // even cuts, so a 1.1× target insert does not leave a tiny tail partition
  const size = Math.ceil(total / Math.max(count, 1));
  const written: WrittenPart[] = [];
  try {
    for (let start = 0; start < total; start += size) {
      const columns = sliceColumns(schema, batches, start, Math.min(total, start + size));
      written.push(await writePart(ctx, table, schema, columns));
    }
  } catch (e) {
    await removeParts(ctx, written);
    throw e;
  }
  return written;
}

/**
 * Writes one partition file from contiguous columns, plus the hidden columns derived from them
 * (`geo/bbox.ts`: the bounding boxes of geometry columns), which get zone maps like any column.
 * Each column is encoded (its value buffers written as they are, not
 * copied) and its write started before the next column's zone map is computed, so CPU work
 * overlaps the disk. `known` zone maps
 * (by column name, computed as the rows arrived, e.g. by ingest) are used instead of a pass.
 */
export async function writePart(
  ctx: StoreContext,
  table: string,
  schema: Schema,
  columns: readonly Data[],
  known?: Readonly<Record<string, ZoneStats>>,
): Promise<WrittenPart> {
  const id = `${Date.now().toString(36)}-${ctx.token}-${randomBytes(4).toString('hex')}`;
  const rows = columns[0]?.length ?? 0;
  const file = partFile(table, id);
  const writer = await ctx.blobs.create(file);
  try {
    const zones: Record<string, ZoneStats> = {};
    const segments: SegmentRef[] = [];
    void writer.append(encodePrefix());
    const named = schema.fields.map((field, i) => ({ name: field.name, data: columns[i]!, sameAs: undefined as string | undefined }));
    for (const { name, data, sameAs } of [...named, ...derivedColumns(schema, columns)]) {
      const alias = sameAs === undefined ? undefined : segments.find((s) => s.name === sameAs);
      if (alias) {
        // identical values (point boxes): a second name for the same bytes, read and cached once
        segments.push({ name, offset: alias.offset, length: alias.length });
        zones[name] = zones[sameAs!]!;
        continue;
      }
      // the values are written from the column's own buffers, never copied into one
      const pieces = await segmentPieces(name, data);
      const offset = writer.size;
      for (const piece of pieces) void writer.append(piece);
      segments.push({ name, offset, length: writer.size - offset });
      void writer.append(padding(writer.size));
      zones[name] = known?.[name] ?? zoneStats(data);
    }
    void writer.append(encodeFooter(id, rows, segments));
    const bytes = writer.size;
    await writer.commit();
    return { id, table, rows, bytes, file, segments, zones: zones as ZoneMaps };
  } catch (e) {
    await writer.abort();
    throw e;
  }
}

/** Best-effort removal of files that were written but will not be committed. */
export async function removeParts(ctx: StoreContext, parts: readonly Pick<PartRecord, 'file'>[]): Promise<void> {
  await Promise.all(parts.map((p) => ctx.blobs.remove(p.file).catch(() => undefined)));
}
