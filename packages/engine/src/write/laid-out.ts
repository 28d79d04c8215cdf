// A partition file written while its rows still arrive (Parquet ingest): the fixed-width columns'
// value buffers have a known size, so each gets a stretch of the file up front and its values are
// written there as rows land, with a data sync now and then, so little is left to flush once the
// last row is in. One string (or binary) column grows at the end of the file the same way: its
// value bytes are written as they arrive, its head (validity, offsets) and the rest (message
// headers, other columns, footer) at the end, after its last byte.
import { type Data, type Field, type Schema, Type } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import type { ZoneStats } from '../expr/kernel.js';
import { fixedData, varData } from '../data/layout.js';
import type { BlobWriter } from '../storage/blobstore.js';
import { crc32 } from 'node:zlib';
import { type SegmentRef, encodePrefix, piecesCrc, segmentPieces } from '../storage/format.js';
import { partFile } from '../storage/records.js';
import { type WrittenPart, encodePart, newPartId } from './partition.js';

/** A data sync starts once this many bytes have landed since the last (one sync at a time). */
const SYNC_BYTES = 4 << 20;
/** Smaller value buffers are not laid out (the encoder joins them with their headers). */
const MIN_LAID_BYTES = 1 << 16;

/**
 * One partition file of `rows` rows of `schema`. `placed` holds, per column, the bytes of its
 * fixed-width value buffer (null for other columns): rows reported by `land` must be final there.
 * Nothing is visible until `finish` commits the file; `abort` removes it.
 */
export class LaidOutPart {
  /** The column whose value bytes grow at the end of the file (`grow`), or -1. */
  readonly growing: number;
  private readonly id: string;
  private readonly file: string;
  private readonly ready: Promise<{ writer: BlobWriter; slots: (Slot | undefined)[]; tail?: Tail }>;
  /** Value bytes and rows (offsets) of the growing column written (or being written) so far. */
  private grown = 0;
  private grownRows = 0;
  /** The CRC-32s of those value bytes and of their offsets (from offset 0), taken as they came. */
  private grownCrc = 0;
  private offsetsCrc = 0;
  private unsynced = 0;
  private landed = 0;
  private syncing: Promise<void> | undefined;
  private failure: unknown;
  private readonly writes = new Set<Promise<void>>();

  constructor(
    ctx: StoreContext,
    private readonly table: string,
    private readonly schema: Schema,
    private readonly rows: number,
    readonly placed: readonly (Uint8Array | null)[],
  ) {
    this.id = newPartId(ctx);
    this.file = partFile(table, this.id);
    this.growing = schema.fields.findIndex((f) => f.type.typeId === Type.Utf8 || f.type.typeId === Type.Binary);
    this.ready = this.layOut(ctx);
    this.ready.catch((e: unknown) => void (this.failure ??= e));
  }

  /** Rows [from, to) of every laid-out column are final in `placed`: writes them in their stretches. */
  land(from: number, to: number): void {
    this.landed += to - from;
    this.track(
      this.ready.then(({ writer, slots }) => {
        const writes: Promise<void>[] = [];
        for (const slot of slots) {
          if (!slot) continue;
          const bytes = slot.bytes.subarray(from * slot.width, to * slot.width);
          this.unsynced += bytes.length;
          writes.push(writer.writeAt(slot.values + from * slot.width, bytes));
        }
        this.syncSoon(writer);
        return Promise.all(writes).then(() => undefined);
      }),
    );
  }

  /**
   * The growing column's value bytes and offsets (from 0, one per row so far and one more) so far
   * (`growing`; earlier ones unchanged since the last call): writes the new ones in place.
   */
  grow({ bytes, offsets }: { bytes: Uint8Array; offsets: Int32Array }): void {
    const [from, fromRow, rows] = [this.grown, this.grownRows, offsets.length - 1];
    if (rows <= fromRow) return;
    this.grown = bytes.length;
    this.grownRows = rows;
    // offset 0 with the first rows, then each row's end
    const first = fromRow === 0 ? 0 : fromRow + 1;
    const ends = new Uint8Array(offsets.buffer, offsets.byteOffset + first * 4, (rows + 1 - first) * 4);
    // checksummed now, while the caller's copy has left them in cache (finish would read them again)
    this.offsetsCrc = crc32(ends, this.offsetsCrc);
    this.grownCrc = crc32(bytes.subarray(from), this.grownCrc);
    this.track(
      this.ready.then(({ writer, tail }) => {
        if (!tail) return;
        const writes = [tail.offsets < 0 ? undefined : writer.writeAt(tail.offsets + first * 4, ends)];
        if (bytes.length > from) writes.push(writer.writeAt(tail.values + from, bytes.subarray(from)));
        this.unsynced += bytes.length - from + ends.length;
        this.syncSoon(writer);
        return Promise.all(writes).then(() => undefined);
      }),
    );
  }

  /**
   * Writes what is left (the laid-out columns' headers, every other column, the footer) from the
   * final `columns`, then commits the file durably; `known` zone maps are used as in `writePart`,
   * and `crcs` (per column, the CRC-32 of a fixed-width column's value bytes, if known) spare
   * reading those bytes again for the segments' CRCs.
   */
  async finish(columns: readonly Data[], known?: Readonly<Record<string, ZoneStats>>, crcs: readonly (number | undefined)[] = []): Promise<WrittenPart> {
    const { writer, slots, tail } = await this.ready;
    try {
      // every landed stretch's write has been started (`land` runs when `ready` resolves); the
      // rest is encoded while they and the syncs finish
      const byName = new Map<string, Slot | undefined>(this.schema.fields.map((f, c) => [f.name, slots[c] && { ...slots[c], crc: crcs[c] }]));
      if (tail) {
        // the growing column ends the laid-out part of the file: what is appended goes after its
        // last byte and the longest tail its segment may have
        const data = columns[this.growing]!;
        const values = (data.values as Uint8Array).subarray(0, (data.valueOffsets as Int32Array)[data.length]);
        const end = align(tail.values + values.length + tail.room);
        writer.skip(end - writer.size);
        // its segment is fitted if every byte and offset was written in place (else appended whole,
        // below); its validity as long as the stand-in's that sized the head (the encoder writes it whole)
        const validity = data.nullCount > 0 ? data.nullBitmap?.subarray(0, Math.ceil(data.length / 8)) : undefined;
        const offsets = (data.valueOffsets as Int32Array).subarray(0, data.length + 1);
        columns = columns.with(this.growing, varData(data.type, data.length, offsets, values, validity, data.nullCount));
        const placed = tail.offsets < 0 ? undefined : { bytes: new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength), at: tail.offsets };
        if (values.length === this.grown && data.length === this.grownRows) {
          const slot = { start: tail.start, values: tail.values, end, width: 1, bytes: values, crc: this.grownCrc };
          byName.set(this.schema.fields[this.growing]!.name, placed ? { ...slot, placed: { ...placed, crc: this.offsetsCrc } } : slot);
        }
      }
      const laid = async (name: string, data: Data): Promise<SegmentRef | undefined> => {
        const slot = byName.get(name);
        return slot && fitSegment(writer, name, slot, segmentPieces(name, data));
      };
      const emit = (bytes: Uint8Array) => void writer.append(bytes);
      const encoded = await encodePart(this.id, this.schema, columns, known, emit, () => writer.size, laid);
      await this.settled();
      await writer.commit();
      return { table: this.table, file: this.file, ...encoded };
    } catch (e) {
      await writer.abort();
      throw e;
    }
  }

  /** Removes the file (the ingest failed); nothing of it was visible. */
  async abort(): Promise<void> {
    const ready = await this.ready.catch(() => undefined);
    await this.settled().catch(() => undefined);
    await ready?.writer.abort();
  }

  // opens the file, writes the prefix and leaves a stretch per laid-out column, then room for the
  // growing column's head: its value bytes start after it
  private async layOut(ctx: StoreContext): Promise<{ writer: BlobWriter; slots: (Slot | undefined)[]; tail?: Tail }> {
    const writer = await ctx.blobs.create(this.file);
    try {
      void writer.append(encodePrefix());
      const slots: (Slot | undefined)[] = [];
      for (const [c, field] of this.schema.fields.entries()) {
        const bytes = this.placed[c];
        slots.push(bytes && bytes.length >= MIN_LAID_BYTES ? await slotFor(writer, field, this.rows, bytes) : undefined);
      }
      const field = this.schema.fields[this.growing];
      return field ? { writer, slots, tail: await tailFor(writer, field, this.rows) } : { writer, slots };
    } catch (e) {
      await writer.abort();
      throw e;
    }
  }

  // one data sync at a time, whenever enough has landed since the last; none once every row has
  // landed (the commit's own sync flushes the rest)
  private syncSoon(writer: BlobWriter): void {
    if (this.syncing || this.unsynced < SYNC_BYTES || this.landed === this.rows) return;
    this.unsynced = 0;
    this.syncing = writer.flush().finally(() => {
      this.syncing = undefined;
      this.syncSoon(writer);
    });
    this.track(this.syncing);
  }

  private track(op: Promise<void>): void {
    const p = op.catch((e: unknown) => void (this.failure ??= e));
    this.writes.add(p);
    void p.finally(() => this.writes.delete(p));
  }

  // every write and sync started so far has ended; the first failure is thrown
  private async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes]);
    if (this.failure !== undefined) throw this.failure;
  }
}

/**
 * Where the growing column lies: its head in [start, values), its offsets from `offsets` in it (-1:
 * too few rows for them to be written apart from the head), its value bytes from `values`, then
 * at most `room` bytes of tail.
 */
interface Tail {
  readonly start: number;
  readonly offsets: number;
  readonly values: number;
  readonly room: number;
}

// The growing column's room: the longest head the encoder may put before the value bytes of a
// column of `rows` rows (validity when nullable, offsets; their size does not depend on the values,
// so a stand-in of 64 KiB is measured) and the longest tail after them.
async function tailFor(writer: BlobWriter, { name, type, nullable }: Field, rows: number): Promise<Tail | undefined> {
  const offsets = new Int32Array(rows + 1);
  const values = new Uint8Array(1 << 16);
  offsets[rows] = values.length;
  const pieces = segmentPieces(name, varData(type, rows, offsets, values, undefined, 0));
  const plain = around(pieces, values);
  const nulls = nullable ? around(segmentPieces(name, varData(type, rows, offsets, values, new Uint8Array(Math.ceil(rows / 8)), 1)), values) : plain;
  if (!plain || !nulls) return undefined;
  const start = writer.size;
  const at = align(start + Math.max(plain.head, nulls.head));
  writer.skip(at - start);
  // the offsets lie just before the values (validity, if any, before them), in either variant
  const ends = around(pieces, new Uint8Array(offsets.buffer));
  return { start, offsets: ends ? at - (plain.head - ends.head) : -1, values: at, room: Math.max(plain.tail, nulls.tail) };
}

/** Where one column's stretch lies: its values at `values`, the segment anywhere in [start, end). */
interface Slot {
  readonly start: number;
  readonly values: number;
  readonly end: number;
  readonly width: number;
  readonly bytes: Uint8Array;
  /** The CRC-32 of `bytes`, when known. */
  readonly crc?: number;
  /** Another piece of the segment already written, at `at` (the growing column's offsets), and its CRC-32. */
  readonly placed?: { readonly bytes: Uint8Array; readonly at: number; readonly crc?: number };
}

// The stretch of a column: room for the longest header the encoder may put before the values (with
// a validity buffer when the column is nullable) and the longest tail after them, the segment
// without nulls aligned.
async function slotFor(writer: BlobWriter, { name, type, nullable }: Field, rows: number, bytes: Uint8Array): Promise<Slot | undefined> {
  const values = new (type.ArrayType as new (b: ArrayBufferLike, o: number, n: number) => ArrayBufferView)(bytes.buffer, bytes.byteOffset, rows);
  const plain = around(segmentPieces(name, fixedData(type, rows, values, undefined, 0)), bytes);
  const nulls = nullable ? around(segmentPieces(name, fixedData(type, rows, values, new Uint8Array(Math.ceil(rows / 8)), 1)), bytes) : plain;
  if (!plain || !nulls) return undefined;
  const head = Math.max(plain.head, nulls.head);
  const tail = Math.max(plain.tail, nulls.tail);
  const start = writer.size;
  const at = align(start + head - plain.head) + plain.head;
  const end = align(at + bytes.length + tail);
  writer.skip(end - start);
  return { start, values: at, end, width: bytes.length / rows, bytes };
}

// Writes a column's header and tail around its values already in place, when the encoder put the
// values buffer as one piece and the rest fits its stretch; else the caller appends the segment
// whole (the stretch stays unused).
function fitSegment(writer: BlobWriter, name: string, slot: Slot, pieces: readonly Uint8Array[]): SegmentRef | undefined {
  const parts = around(pieces, slot.bytes);
  if (!parts) return undefined;
  const offset = slot.values - parts.head;
  const after = slot.values + slot.bytes.length;
  if (offset < slot.start || after + parts.tail > slot.end) return undefined;
  const placed = slot.placed && around(pieces, slot.placed.bytes);
  if (slot.placed && (!placed || offset + placed.head !== slot.placed.at)) return undefined;
  // every piece not in place yet, at its place (the big ones uncopied)
  let at = offset;
  pieces.forEach((piece, i) => {
    if (i !== parts.index && i !== placed?.index && piece.length > 0) void writer.writeAt(at, piece);
    at += piece.length;
  });
  const known = new Map<number, number>();
  if (slot.crc !== undefined) known.set(parts.index, slot.crc);
  if (placed && slot.placed?.crc !== undefined) known.set(placed.index, slot.placed.crc);
  const crc = piecesCrc(pieces, known);
  return { name, offset, length: after + parts.tail - offset, crc };
}

// which piece of a segment is exactly `values`, and the byte counts before and after it; or undefined
function around(pieces: readonly Uint8Array[], values: Uint8Array): { index: number; head: number; tail: number } | undefined {
  const i = pieces.findIndex((p) => p.buffer === values.buffer && p.byteOffset === values.byteOffset && p.byteLength === values.byteLength);
  const bytes = (from: number, to: number) => pieces.slice(from, to).reduce((n, p) => n + p.length, 0);
  return i < 0 ? undefined : { index: i, head: bytes(0, i), tail: bytes(i + 1, pieces.length) };
}

const align = (n: number): number => Math.ceil(n / 64) * 64;
