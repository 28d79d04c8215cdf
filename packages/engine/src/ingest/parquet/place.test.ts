// The workers' half of placed Parquet ingest (placeBatch: values written into the partitions' shared
// buffers, zone maps and CRC-32s computed per piece) and the main thread's half (PartitionFill)
// together give the same partitions and zone maps as gathering the rows and computing zone maps on
// one thread, and each placed column's CRC-32 is that of its value bytes.
import fc from 'fast-check';
import { Bool, type DataType, Field, Float64, Int32, Int64, LargeUtf8, RecordBatch, Schema, TimestampMillisecond, Utf8, makeVector, vectorFromArray } from 'apache-arrow';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeBatch } from '../../data/layout.js';
import { concatData } from '../../storage/concat.js';
import { zoneStats } from '../../storage/zonemap.js';
import { PartitionFill } from './assemble.js';
import { type PartTarget, isPlaced, placeBatch } from './place.js';

const float = fc.oneof(fc.double(), fc.constantFrom(0, -0, NaN, Infinity, -Infinity));
const columns: Array<{ type: DataType; gen: fc.Arbitrary<unknown> }> = [
  { type: new Float64(), gen: fc.option(float, { nil: null, freq: 4 }) },
  { type: new Int32(), gen: fc.option(fc.integer(), { nil: null }) },
  { type: new Int64(), gen: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { nil: null }) },
  { type: new TimestampMillisecond(), gen: fc.option(fc.integer({ min: -1e12, max: 1e12 }).map((ms) => new Date(ms)), { nil: null }) },
  { type: new Bool(), gen: fc.option(fc.boolean(), { nil: null }) },
  { type: new Utf8(), gen: fc.option(fc.string({ unit: 'binary', maxLength: 6 }), { nil: null }) },
  { type: new LargeUtf8(), gen: fc.option(fc.string({ maxLength: 4 }), { nil: null }) },
];
const schema = new Schema(columns.map((c, i) => new Field(`c${i}`, c.type, true)));
const row = fc.tuple(...columns.map((c) => c.gen));

describe('placed Parquet partitions', () => {
  it('equal the rows gathered on one thread, zone maps included, whatever the group and partition sizes', () => {
    fc.assert(
      fc.property(fc.array(fc.array(row, { maxLength: 40 }), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 50 }), fc.nat(3), fc.boolean(), (groups, size, split, reuse) => {
        const all = groups.flat();
        // with `reuse`, buffers come from a pool (larger than asked, holding a previous user's
        // bytes) and pieces' buffers the fill reports copied go back to it, scribbled over
        const pool: SharedArrayBuffer[] = [];
        const alloc = (bytes: number) => {
          const i = pool.findIndex((b) => b.byteLength >= bytes);
          return i >= 0 ? pool.splice(i, 1)[0]! : new Uint8Array(new SharedArrayBuffer(bytes + 24)).fill(0xa5).buffer as SharedArrayBuffer;
        };
        const recycle = (buffers: SharedArrayBuffer[]) => buffers.forEach((b) => pool.push(new Uint8Array(b).fill(0x5a).buffer as SharedArrayBuffer));
        const fills = new Map<number, PartitionFill>();
        const fillOf = (p: number) => fills.get(p) ?? fills.set(p, new PartitionFill(schema, Math.min(size, all.length - p * size), undefined, reuse ? alloc : undefined)).get(p)!;
        const got: { data: unknown[]; zone: unknown }[][] = [];
        let first = 0;
        for (const rows of groups) {
          // the targets of this group, as the main thread makes them
          const targets: PartTarget[] = [];
          const parts: number[] = [];
          for (let r = first; r < first + rows.length; ) {
            const p = Math.floor(r / size);
            const stop = Math.min(first + rows.length, (p + 1) * size);
            targets.push({ groupRow: r - first, rows: stop - r, partRow: r - p * size, placed: fillOf(p).placed });
            parts.push(p);
            r = stop;
          }
          // a group decoded as one batch or cut in two
          const cut = split === 0 ? rows.length : Math.floor(rows.length / (split + 1));
          for (const [from, to] of [[0, cut], [cut, rows.length]] as const) {
            if (from >= to) continue;
            for (const piece of placeBatch(batchOf(rows.slice(from, to)), from, targets, reuse ? alloc : undefined)) {
              const fill = fills.get(parts[piece.target]!)!;
              const copied = fill.add(piece);
              if (reuse) recycle(copied);
              if (fill.full) {
                fills.delete(parts[piece.target]!);
                const finished = fill.finish();
                got.push(finished.map((c) => ({ data: [...makeVector(c.data)], zone: c.zone })));
                // the pieces' CRCs put together: the CRC of the bytes the partition file gets
                for (const c of finished) {
                  if (!isPlaced(c.data.type)) continue;
                  const values = c.data.values as ArrayBufferView;
                  expect(c.crc).toBe(crc32(new Uint8Array(values.buffer, values.byteOffset, values.byteLength)));
                }
              }
            }
          }
          first += rows.length;
        }
        expect(fills.size).toBe(0);
        const expected: { data: unknown[]; zone: unknown }[][] = [];
        for (let start = 0; start < all.length; start += size) {
          const batch = batchOf(all.slice(start, start + size));
          expected.push(batch.data.children.map((d, c) => ({ data: [...makeVector(d)], zone: zoneStats(concatData(columns[c]!.type, [d])) })));
        }
        expect(got).toEqual(expected);
        // -0 and 0 compare equal above: the first one seen must be kept, as one pass keeps it
        got.forEach((part, p) => {
          const [a, b] = [part[0]!.zone as { min: unknown; max: unknown }, expected[p]![0]!.zone as { min: unknown; max: unknown }];
          expect(Object.is(a.min, b.min) && Object.is(a.max, b.max)).toBe(true);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('places the fixed-width columns only', () => {
    expect(columns.map((c) => isPlaced(c.type))).toEqual([true, true, true, true, false, false, false]);
  });
});

function batchOf(rows: unknown[][]): RecordBatch {
  const children = columns.map((c, i) => vectorFromArray(rows.map((r) => r[i]) as never[], c.type as never).data[0]!);
  return makeBatch(schema, children.map((d) => concatData(d.type, [d])), rows.length);
}
