import { Binary, Bool, Float32, Float64, Int32, Int64, TimestampMillisecond, Uint8, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { PART_VERSION, PREFIX_BYTES, checkPrefix, decodeSegment, encodeFooter, encodePrefix, encodeSegment, padding, segmentPieces } from './format.js';

// lays out a partition file the way write/partition.ts does
function layout(columns: Array<{ name: string; data: Parameters<typeof encodeSegment>[1] }>) {
  const pieces: Uint8Array[] = [encodePrefix()];
  let size = PREFIX_BYTES;
  const segments = columns.map(({ name, data }) => {
    const bytes = encodeSegment(name, data);
    const ref = { name, offset: size, length: bytes.length };
    const pad = padding(size + bytes.length);
    pieces.push(bytes, pad);
    size += bytes.length + pad.length;
    return ref;
  });
  pieces.push(encodeFooter('p1', columns[0]!.data.length, segments));
  return { file: Buffer.concat(pieces), segments };
}

describe('partition format', () => {
  it('gives the same bytes as pieces, the large value buffers as views of the column', async () => {
    const big = Float64Array.from({ length: 20_000 }, (_, i) => i / 3);
    const cases = [
      vectorFromArray([1.5, null, 3], new Float64()).data[0]!,
      vectorFromArray(['x', 'yy', null], new Utf8()).data[0]!,
      vectorFromArray(Array.from({ length: 17_000 }, (_, i) => (i % 7 === 0 ? null : `s${i}`)), new Utf8()).data[0]!,
      vectorFromArray(Array.from(big), new Float64()).data[0]!,
      vectorFromArray([], new Int32()).data[0]!,
      vectorFromArray([1n, null, -(2n ** 62n)], new Int64()).data[0]!,
      vectorFromArray([1_700_000_000_000, null, 0], new TimestampMillisecond()).data[0]!,
      vectorFromArray([true, null, false, true], new Bool()).data[0]!,
      vectorFromArray([Uint8Array.of(1, 2), null, new Uint8Array(0)], new Binary()).data[0]!,
      vectorFromArray([0.5, 2], new Float32()).data[0]!,
      vectorFromArray([7, 255], new Uint8()).data[0]!,
      // slices (a partition cut from a batch): offsets into the parent's buffers
      vectorFromArray(Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? null : `v${i}`)), new Utf8()).data[0]!.slice(17, 50),
      vectorFromArray(Array.from({ length: 100 }, (_, i) => (i % 5 === 0 ? null : i % 2 === 0)), new Bool()).data[0]!.slice(3, 61),
      vectorFromArray(Array.from({ length: 100 }, (_, i) => i * 1.5), new Float64()).data[0]!.slice(9, 40),
    ];
    for (const data of cases) {
      const pieces = segmentPieces('c', data);
      expect(Buffer.concat(pieces)).toEqual(Buffer.from(encodeSegment('c', data)));
    }
    const pieces = segmentPieces('c', cases[3]!);
    expect(pieces.some((p) => p.buffer === cases[3]!.values.buffer)).toBe(true);
  });
  it('round-trips columns at 64-byte aligned offsets, zero-copy from a SharedArrayBuffer', () => {
    const a = vectorFromArray([1.5, null, 3], new Float64()).data[0]!;
    const b = vectorFromArray(['x', 'yy', null], new Utf8()).data[0]!;
    const { file, segments } = layout([{ name: 'a', data: a }, { name: 'b', data: b }]);
    checkPrefix(file.subarray(0, PREFIX_BYTES), 'f');
    for (const seg of segments) {
      expect(seg.offset % 64).toBe(0);
      const sab = new Uint8Array(new SharedArrayBuffer(seg.length));
      sab.set(file.subarray(seg.offset, seg.offset + seg.length));
      const data = decodeSegment(sab, 'f');
      expect(data.values.buffer).toBe(sab.buffer);
      expect(data.length).toBe(3);
    }
    // the footer: JSON directory, its length, the magic
    expect(file.subarray(file.length - 8).toString('latin1')).toBe('HLCNPART');
    const len = file.readUInt32LE(file.length - 12);
    expect(JSON.parse(file.subarray(file.length - 12 - len, file.length - 12).toString())).toEqual({ part: 'p1', rows: 3, columns: segments });
  });

  it('says which version it got and which it expects', () => {
    const { file } = layout([{ name: 'a', data: vectorFromArray([1], new Int32()).data[0]! }]);
    file.writeUInt32LE(PART_VERSION + 1, 8);
    expect(() => checkPrefix(file.subarray(0, 16), 'x.hlp')).toThrow(`got v${PART_VERSION + 1} partition data, expected v${PART_VERSION}`);
    expect(() => checkPrefix(new Uint8Array(16), 'x.hlp')).toThrow('bad magic');
  });
});
