// A partition file written as its rows land: the same columns read back as written (nulls included,
// their CRCs checked, whether the value bytes' CRCs were given or read at the end), each fixed-width
// segment inside its own stretch, the string column's bytes where they grew, and nothing left
// behind when it is aborted.
import { type Data, Field, Float64, Int32, Int64, Schema, Utf8, makeVector, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { fixedData } from '../data/layout.js';
import { loadColumn } from '../read/load.js';
import type { PartRecord } from '../storage/records.js';
import { PART_MAGIC, decodeFooter } from '../storage/format.js';
import { freshStore } from '../test-util/store.js';
import { LaidOutPart } from './laid-out.js';

const schema = new Schema([
  new Field('id', new Int64(), false),
  new Field('depth', new Float64(), true),
  new Field('level', new Int32(), true),
  new Field('name', new Utf8(), true),
]);

// a store's context, and the partition of `rows` rows: shared value buffers (id, depth, level)
// filled like the Parquet workers do, depth null on every row `nullEvery` divides and name on the
// row after; names of `nameBytes` bytes or so
async function setup(rows: number, nullEvery: number, nameBytes = 12) {
  const store = await freshStore();
  const ctx = (store as unknown as { ctx: StoreContext }).ctx;
  const id = new BigInt64Array(new SharedArrayBuffer(rows * 8)).map((_, i) => BigInt(i) * 3n);
  const depth = new Float64Array(new SharedArrayBuffer(rows * 8)).map((_, i) => i / 4);
  const level = new Int32Array(new SharedArrayBuffer(rows * 4)).map((_, i) => i % 1000);
  const placed = [id, depth, level].map((a) => new Uint8Array(a.buffer));
  const bits = new Uint8Array(Math.ceil(rows / 8)).fill(0xff);
  let nulls = 0;
  for (let i = 0; i < rows; i += nullEvery) (bits[i >> 3]! &= ~(1 << (i & 7))), nulls++;
  const name = (i: number) => (i % nullEvery === 1 ? null : `N${i % 17}`.padEnd(1 + ((i * 7) % (2 * nameBytes)), 'x'));
  const names = vectorFromArray(Array.from({ length: rows }, (_, i) => name(i)), new Utf8()).data[0]!;
  const columns: Data[] = [
    fixedData(new Int64(), rows, id, undefined, 0),
    fixedData(new Float64(), rows, depth, nullEvery > rows ? undefined : bits, nullEvery > rows ? 0 : nulls),
    fixedData(new Int32(), rows, level, undefined, 0),
    names,
  ];
  return { ctx, placed: [...placed, null], columns };
}

// landing cuts: ascending row boundaries from 0 to rows
const cutsOf = (rows: number) => fc.uniqueArray(fc.integer({ min: 1, max: rows - 1 }), { maxLength: 12 }).map((c) => [0, ...c.sort((a, b) => a - b), rows]);

describe('LaidOutPart', () => {
  it('writes a partition whose columns read back as they were, whatever the landing cuts and nulls', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 8_200, max: 30_000 }).chain((rows) => fc.tuple(fc.constant(rows), cutsOf(rows), fc.constantFrom(3, 7, 1 << 30), fc.boolean(), fc.boolean())), async ([rows, cuts, nullEvery, skip, known]) => {
        const { ctx, placed, columns } = await setup(rows, nullEvery);
        const part = new LaidOutPart(ctx, 'tbl', schema, rows, placed);
        expect(part.growing).toBe(3);
        const bytes = columns[3]!.values as Uint8Array;
        const offsets = columns[3]!.valueOffsets as Int32Array;
        for (let i = 1; i < cuts.length; i++) {
          part.land(cuts[i - 1]!, cuts[i]!);
          // the string bytes and offsets so far, as the rows land (or, some of the time, every
          // other landing); from 16384 rows the offsets are written in place too
          if (!skip || i % 2 === 0 || i === cuts.length - 1) part.grow({ bytes: bytes.subarray(0, offsets[cuts[i]!]!), offsets: offsets.subarray(0, cuts[i]! + 1) });
        }
        // the fixed-width columns' value CRCs given (as the Parquet workers compute them), or not
        const crcs = known ? placed.map((b) => (b ? crc32(b) : undefined)) : [];
        const written = await part.finish(columns, undefined, crcs);
        const record = { ...written, seq: 0, added: 1 } as PartRecord;
        for (const [c, f] of schema.fields.entries()) {
          const back = makeVector(await loadColumn(ctx, record, f.name, false));
          expect(back.toArray(), f.name).toEqual(makeVector(columns[c]!).toArray());
          expect(back.nullCount).toBe(columns[c]!.nullCount);
        }
        // the fixed-width segments sit in their stretches and the string segment where it grew: no
        // column was written a second time at the end (the file holds the segments, the validity
        // room of nullable columns, padding, footer)
        // (level is laid out from 16384 rows, else appended after the string bytes)
        const at = Object.fromEntries(written.segments.map((s) => [s.name, s.offset]));
        expect(Math.max(at.id!, at.depth!)).toBeLessThan(at.name!);
        const segments = written.segments.reduce((n, s) => n + s.length, 0);
        const validityRoom = 3 * Math.ceil(rows / 8); // depth, level and name are nullable, id is not
        expect(written.bytes - segments).toBeLessThan(validityRoom + 2048);
        // the file is exactly as long as recorded: prefix and footer magic where they belong
        const ends = [new Uint8Array(8), new Uint8Array(8)];
        await ctx.blobs.read(written.file, 0, ends[0]!);
        await ctx.blobs.read(written.file, written.bytes - 8, ends[1]!);
        expect(ends.map((e) => Buffer.from(e).toString('latin1'))).toEqual([PART_MAGIC, PART_MAGIC]);
        await expect(ctx.blobs.read(written.file, written.bytes, new Uint8Array(1))).rejects.toThrow(/truncated/);
        // the footer holds the directory as recorded, a CRC for each segment (loadColumn checked them above)
        const file = new Uint8Array(written.bytes);
        await ctx.blobs.read(written.file, 0, file);
        expect(decodeFooter(file, written.file).columns).toEqual(written.segments);
        expect(written.segments.every((s) => typeof s.crc === 'number')).toBe(true);
      }),
      { numRuns: 12 },
    );
  });

  it('appends the string segment whole when its bytes are too few to be written in place', async () => {
    const { ctx, placed, columns } = await setup(9_000, 5, 1);
    const part = new LaidOutPart(ctx, 'tbl', schema, 9_000, placed);
    part.land(0, 9_000);
    part.grow({ bytes: columns[3]!.values as Uint8Array, offsets: columns[3]!.valueOffsets as Int32Array });
    const record = { ...(await part.finish(columns)), seq: 0, added: 1 } as PartRecord;
    const back = makeVector(await loadColumn(ctx, record, 'name', false));
    expect(back.toArray()).toEqual(makeVector(columns[3]!).toArray());
  });

  it('leaves no file behind when aborted after rows landed', async () => {
    const { ctx, placed } = await setup(10_000, 7);
    const part = new LaidOutPart(ctx, 'tbl', schema, 10_000, placed);
    part.land(0, 6_000);
    await part.abort();
    expect(await ctx.blobs.list('parts')).toEqual([]);
  });
});
