// One partition's column being filled as batches arrive during an ingest: each chunk is copied into
// growing contiguous buffers and its zone map merged in at once, so when the partition is full only
// encoding and the durable write remain (the copy and the zone maps overlap decoding and parsing).
import { type Data, type DataType, Type } from 'apache-arrow';
import type { ZoneStats } from '../expr/kernel.js';
import { fixedData, varData } from '../data/layout.js';
import { concatData } from '../storage/concat.js';
import { zoneStats } from '../storage/zonemap.js';
import { crc32Combine } from '../storage/crc32.js';
import { sharedBuffer } from '../exec/shared-memory.js';

/** A column of one partition, appended chunk by chunk; `finish` gives one offset-0 chunk and its zone map. */
export class ColumnAccumulator {
  private rows = 0;
  private zone: ZoneStats | undefined;
  private readonly fill: Fill;

  constructor(readonly type: DataType) {
    this.fill = newFill(type);
  }

  /**
   * Var-width columns with 32-bit offsets: the value bytes and offsets of the rows appended so far
   * (views; later appends leave them as they are). Undefined for other layouts.
   */
  sofar(): { bytes: Uint8Array; offsets: Int32Array } | undefined {
    return this.fill.sofar?.(this.rows);
  }

  /** True when `append` copies a chunk's buffers (the caller may reuse them), false when it keeps them. */
  get copies(): boolean {
    return !(this.fill instanceof ChunkFill);
  }

  /** Makes room for `rows` rows in all (growing on demand costs a copy per doubling). */
  reserve(rows: number): void {
    this.fill.reserve?.(rows);
  }

  /** Appends every row of `chunk` (any offset); `zone` is its zone map when already known. */
  append(chunk: Data, zone?: ZoneStats): void {
    if (chunk.length === 0) return;
    // zone maps read offset-0 chunks; only a batch cut at a partition boundary has another offset
    const whole = chunk.offset === 0 ? chunk : concatData(this.type, [chunk]);
    this.zone = mergeZones(this.zone, zone ?? zoneStats(whole));
    this.fill.append(whole, this.rows);
    this.rows += whole.length;
  }

  /** The rows appended so far as one offset-0 chunk, with its zone map. */
  finish(): { data: Data; zone: ZoneStats } {
    return { data: this.fill.finish(this.rows), zone: this.zone ?? { min: null, max: null, nullCount: 0, rows: 0 } };
  }
}

/**
 * A fixed-width column of one partition whose values others write into `values` (the Parquet
 * workers, in shared memory), with the zone map and the CRC-32 of each piece they wrote: only the
 * validity bits are made here, and the pieces' zone maps and CRCs put together, as pieces land.
 */
export class PlacedColumn {
  private rows = 0;
  private zone: ZoneStats | undefined;
  /** The CRC-32 of the value bytes of the rows noted so far; undefined once a piece came without one. */
  private crc: number | undefined = 0;
  private readonly bits = new Bits();

  constructor(
    readonly type: DataType,
    private readonly values: ArrayBufferView & { length: number; BYTES_PER_ELEMENT: number },
  ) {}

  /**
   * Records the next `rows` rows as written, with their validity from bit 0 (null: no null), their
   * zone map and the CRC-32 of their value bytes (if known).
   */
  note(rows: number, validity: Uint8Array | null, nullCount: number, zone: ZoneStats, crc: number | undefined): void {
    if (rows === 0) return;
    const at = this.rows;
    const values = (this.values as unknown as { subarray(a: number, b: number): ArrayBufferView }).subarray(at, at + rows);
    this.bits.append(fixedData(this.type, rows, values, validity ?? undefined, nullCount), at, this.values.length);
    this.zone = mergeZones(this.zone, zone);
    this.crc = this.crc === undefined || crc === undefined ? undefined : crc32Combine(this.crc, crc, rows * this.values.BYTES_PER_ELEMENT);
    this.rows = at + rows;
  }

  /** The rows noted so far as one offset-0 chunk, with its zone map and the CRC-32 of its value bytes (if known). */
  finish(): { data: Data; zone: ZoneStats; crc: number | undefined } {
    const values = (this.values as unknown as { subarray(a: number, b: number): ArrayBufferView }).subarray(0, this.rows);
    const zone = this.zone ?? { min: null, max: null, nullCount: 0, rows: 0 };
    return { data: fixedData(this.type, this.rows, values, this.bits.bits, this.bits.nullCount), zone, crc: this.crc };
  }
}

/** The zone map of two consecutive chunks: the earlier one wins ties, as one pass over both would. */
export function mergeZones(a: ZoneStats | undefined, b: ZoneStats): ZoneStats {
  if (!a) return b;
  const min = a.min === null ? b.min : b.min === null || compare(a.min, b.min) <= 0 ? a.min : b.min;
  const max = a.max === null ? b.max : b.max === null || compare(a.max, b.max) >= 0 ? a.max : b.max;
  const merged = { min, max, nullCount: a.nullCount + b.nullCount, rows: a.rows + b.rows };
  // float columns count their NaNs (pruning needs to know there are none); unknown stays unknown
  return a.nanCount !== undefined && b.nanCount !== undefined ? { ...merged, nanCount: a.nanCount + b.nanCount } : merged;
}

type Value = NonNullable<ZoneStats['min']>;

// strings in UTF-8 byte order (what zoneStats uses), numbers/bigints/booleans by value
function compare(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How the buffers of one column layout grow. */
interface Fill {
  reserve?(rows: number): void;
  sofar?(rows: number): { bytes: Uint8Array; offsets: Int32Array };
  append(chunk: Data, at: number): void;
  finish(rows: number): Data;
}

function newFill(type: DataType): Fill {
  switch (type.typeId) {
    case Type.Utf8:
    case Type.Binary:
      return new VarFill(type);
    case Type.Bool:
    case Type.LargeUtf8:
    case Type.LargeBinary:
      return new ChunkFill(type);
    default:
      return new FixedFill(type);
  }
}

// Rare layouts (bool bit values, 64-bit offsets): keep the chunks, concatenate once at the end.
class ChunkFill implements Fill {
  private readonly chunks: Data[] = [];
  constructor(private readonly type: DataType) {}
  append(chunk: Data): void {
    this.chunks.push(chunk);
  }
  finish(): Data {
    return concatData(this.type, this.chunks);
  }
}

type Typed = ArrayBufferView & ArrayLike<unknown> & { readonly BYTES_PER_ELEMENT: number; set(a: ArrayLike<unknown>, at: number): void; subarray(a: number, b: number): Typed };

// Validity bits of the rows so far; allocated only once a chunk has a null.
class Bits {
  bits: Uint8Array | undefined;
  nullCount = 0;

  append(chunk: Data, at: number, capacity: number): void {
    if (chunk.nullCount === 0) {
      if (this.bits) setRange(this.bits, at, chunk.length);
      return;
    }
    if (!this.bits) {
      this.bits = new Uint8Array(bitBytes(capacity));
      setRange(this.bits, 0, at);
    } else if (this.bits.length < bitBytes(at + chunk.length)) {
      this.bits = grow(this.bits, bitBytes(capacity));
    }
    const src = chunk.nullBitmap!;
    for (let i = 0; i < chunk.length; i++) {
      const j = chunk.offset + i;
      if ((src[j >> 3]! >> (j & 7)) & 1) this.bits[(at + i) >> 3]! |= 1 << ((at + i) & 7);
    }
    this.nullCount += chunk.nullCount;
  }

  reserve(capacity: number): void {
    if (this.bits && this.bits.length < bitBytes(capacity)) this.bits = grow(this.bits, bitBytes(capacity));
  }
}

class FixedFill implements Fill {
  private values: Typed;
  private readonly stride: number;
  private readonly bits = new Bits();

  constructor(private readonly type: DataType) {
    this.stride = (type as { stride?: number }).stride ?? 1;
    this.values = new (type.ArrayType as new (n: number) => Typed)(0);
  }

  reserve(rows: number): void {
    if (this.values.length >= rows * this.stride) return;
    this.values = grow(this.values, rows * this.stride);
    this.bits.reserve(rows);
  }

  append(chunk: Data, at: number): void {
    const need = (at + chunk.length) * this.stride;
    if (this.values.length < need) {
      const capacity = Math.max(need, 2 * this.values.length, 1024 * this.stride);
      this.values = grow(this.values, capacity);
      this.bits.reserve(capacity / this.stride);
    }
    this.values.set((chunk.values as Typed).subarray(0, chunk.length * this.stride), at * this.stride);
    this.bits.append(chunk, at, this.values.length / this.stride);
  }

  finish(rows: number): Data {
    return fixedData(this.type, rows, this.values.subarray(0, rows * this.stride), this.bits.bits, this.bits.nullCount);
  }
}

// utf8/binary with 32-bit offsets: offsets rebased onto one growing byte buffer
class VarFill implements Fill {
  private offsets = new Int32Array(1);
  private bytes = new Uint8Array(0);
  private size = 0;
  private readonly bits = new Bits();
  private expect = 0;

  constructor(private readonly type: DataType) {}

  reserve(rows: number): void {
    this.expect = rows;
    if (this.offsets.length >= rows + 1) return;
    this.offsets = grow(this.offsets, rows + 1);
    this.bits.reserve(rows);
  }

  append(chunk: Data, at: number): void {
    const src = chunk.valueOffsets as Int32Array;
    const base = src[0]!;
    const length = src[chunk.length]! - base;
    if (this.offsets.length < at + chunk.length + 1) {
      this.offsets = grow(this.offsets, Math.max(at + chunk.length + 1, 2 * this.offsets.length, 1024));
      this.bits.reserve(this.offsets.length - 1);
    }
    if (this.bytes.length < this.size + length) {
      // the first chunk's bytes per row, times the rows expected, with a little room
      const guess = at === 0 && chunk.length > 0 ? Math.ceil(((length / chunk.length) * this.expect * 17) / 16) : 0;
      this.bytes = grow(this.bytes, Math.max(this.size + length, 2 * this.bytes.length, guess, 1 << 16));
    }
    this.bytes.set((chunk.values as Uint8Array).subarray(base, base + length), this.size);
    const shift = this.size - base;
    const out = this.offsets;
    for (let i = 1; i <= chunk.length; i++) out[at + i] = src[i]! + shift;
    this.size += length;
    this.bits.append(chunk, at, this.offsets.length - 1);
  }

  sofar(rows: number): { bytes: Uint8Array; offsets: Int32Array } {
    return { bytes: this.bytes.subarray(0, this.size), offsets: this.offsets.subarray(0, rows + 1) };
  }

  finish(rows: number): Data {
    return varData(this.type, rows, this.offsets.subarray(0, rows + 1), this.bytes.subarray(0, this.size), this.bits.bits, this.bits.nullCount);
  }
}

// a larger copy of `a`, in shared memory: V8 counts an ArrayBuffer's bytes against the old
// generation's headroom, and a partition's columns (~18 MB for the string column of the bench's
// 1M-row Parquet file) would set off an incremental marking on this thread, ~16 ms of steps
function grow<T extends Typed>(a: T, length: number): T {
  const out = new (a.constructor as new (b: ArrayBufferLike, at: number, n: number) => T)(sharedBuffer(length * a.BYTES_PER_ELEMENT), 0, length);
  out.set(a, 0);
  return out;
}

function bitBytes(rows: number): number {
  return ((rows + 63) >> 6) << 3;
}

// sets bits [from, from + n)
function setRange(bits: Uint8Array, from: number, n: number): void {
  for (let i = from; i < from + n; i++) bits[i >> 3]! |= 1 << (i & 7);
}
