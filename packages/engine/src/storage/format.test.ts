import { Float64, Int32, Utf8, vectorFromArray } from 'apache-arrow';
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
    ];
    for (const data of cases) {
      const pieces = await segmentPieces('c', data);
      expect(Buffer.concat(pieces)).toEqual(Buffer.from(encodeSegment('c', data)));
    }
    const pieces = await segmentPieces('c', cases[3]!);
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
