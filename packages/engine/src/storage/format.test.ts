import { Float64, Int32, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { PART_VERSION, PREFIX_BYTES, checkPrefix, decodeSegment, encodePartition } from './format.js';

const concat = (pieces: readonly Uint8Array[]) => Buffer.concat(pieces.map((p) => Buffer.from(p)));

describe('partition format', () => {
  it('round-trips columns at 64-byte aligned offsets, zero-copy from a SharedArrayBuffer', () => {
    const a = vectorFromArray([1.5, null, 3], new Float64()).data[0]!;
    const b = vectorFromArray(['x', 'yy', null], new Utf8()).data[0]!;
    const enc = encodePartition('p1', 3, [{ name: 'a', data: a }, { name: 'b', data: b }]);
    const file = concat(enc.pieces);
    expect(file.length).toBe(enc.bytes);
    checkPrefix(file.subarray(0, PREFIX_BYTES), 'f');
    for (const seg of enc.segments) {
      expect(seg.offset % 64).toBe(0);
      const sab = new Uint8Array(new SharedArrayBuffer(seg.length));
      sab.set(file.subarray(seg.offset, seg.offset + seg.length));
      const data = decodeSegment(sab, 'f');
      expect(data.values.buffer).toBe(sab.buffer);
      expect(data.length).toBe(3);
    }
    const header = JSON.parse(file.subarray(16, 16 + file.readUInt32LE(12)).toString());
    expect(header).toMatchObject({ part: 'p1', rows: 3 });
  });

  it('says which version it got and which it expects', () => {
    const enc = encodePartition('p', 1, [{ name: 'a', data: vectorFromArray([1], new Int32()).data[0]! }]);
    const file = concat(enc.pieces);
    file.writeUInt32LE(PART_VERSION + 1, 8);
    expect(() => checkPrefix(file.subarray(0, 16), 'x.hlp')).toThrow(`got v${PART_VERSION + 1} partition data, expected v${PART_VERSION}`);
    expect(() => checkPrefix(new Uint8Array(16), 'x.hlp')).toThrow('bad magic');
  });
});
