import { Binary, Bool, Float32, Float64, Int32, Int64, TimestampMillisecond, Uint8, Utf8, vectorFromArray } from 'apache-arrow';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PART_VERSION, PREFIX_BYTES, checkPrefix, checkSegment, decodeFooter, decodeSegment, encodeFooter, encodePrefix, encodeSegment, padding, piecesCrc, segmentPieces } from './format.js';

// lays out a partition file the way write/partition.ts does
function layout(columns: Array<{ name: string; data: Parameters<typeof encodeSegment>[1] }>) {
  const pieces: Uint8Array[] = [encodePrefix()];
  let size = PREFIX_BYTES;
  const segments = columns.map(({ name, data }) => {
    const bytes = encodeSegment(name, data);
    const ref = { name, offset: size, length: bytes.length, crc: piecesCrc(segmentPieces(name, data)) };
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
      // the segment's CRC, with any one piece's CRC given instead of its bytes read
      const whole = crc32(Buffer.concat(pieces));
      expect(piecesCrc(pieces)).toBe(whole);
      pieces.forEach((piece, index) => expect(piecesCrc(pieces, new Map([[index, crc32(piece)]]))).toBe(whole));
      expect(piecesCrc(pieces, new Map(pieces.map((piece, index) => [index, crc32(piece)])))).toBe(whole);
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
      checkSegment(sab, seg, 'f');
      const data = decodeSegment(sab, 'f', seg.name);
      expect(data.values.buffer).toBe(sab.buffer);
      expect(data.length).toBe(3);
    }
    // the footer: JSON directory, its CRC, its length, the magic
    expect(file.subarray(file.length - 8).toString('latin1')).toBe('HLCNPART');
    const len = file.readUInt32LE(file.length - 12);
    const json = file.subarray(file.length - 16 - len, file.length - 16);
    expect(JSON.parse(json.toString())).toEqual({ part: 'p1', rows: 3, columns: segments });
    expect(file.readUInt32LE(file.length - 16)).toBe(crc32(json));
    expect(decodeFooter(file, 'f')).toEqual({ part: 'p1', rows: 3, columns: segments });
  });

  it('checks the prefix, the footer and each segment against their CRCs, naming the file and the column', () => {
    const a = vectorFromArray([1.5, null, 3], new Float64()).data[0]!;
    const { file, segments } = layout([{ name: 'a', data: a }, { name: 'g\u0000xmin', data: a }]);
    // the prefix: version and CRC as written; any byte of [0, 64) changed is refused
    expect(file.readUInt32LE(8)).toBe(PART_VERSION);
    expect(file.readUInt32LE(60)).toBe(crc32(file.subarray(0, 60)));
    for (const at of [0, 9, 12, 40, 63]) {
      const bad = Buffer.from(file);
      bad[at]! ^= 0x10;
      expect(() => checkPrefix(bad.subarray(0, PREFIX_BYTES), 'x.hlp')).toThrow(/x\.hlp/);
    }
    // a segment: its bytes against the CRC in the directory
    for (const seg of segments) {
      const bytes = Buffer.from(file.subarray(seg.offset, seg.offset + seg.length));
      bytes[seg.length >> 1]! ^= 1;
      const e = caught(() => checkSegment(bytes, seg, 'x.hlp'));
      expect(e).toMatchObject({ code: 'Corrupt', path: 'x.hlp', column: seg.name.split('\u0000')[0] });
      expect(e.message).toMatch(seg.name === 'a' ? /x\.hlp: column "a" is damaged/ : /x\.hlp: column "g" \(its xmin boxes\) is damaged/);
    }
    // the footer: its JSON against its CRC; cut short
    const bad = Buffer.from(file);
    bad[file.length - 20]! ^= 4;
    expect(() => decodeFooter(bad, 'x.hlp')).toThrow('x.hlp: the partition file\'s footer is damaged');
    expect(() => decodeFooter(file.subarray(0, file.length - 3), 'x.hlp')).toThrow('footer is missing or cut short');
  });

  it('reads v1 files (no CRCs) unchecked, unless their record says they have CRCs', () => {
    const v1 = Buffer.alloc(PREFIX_BYTES);
    v1.write('HLCNPART', 'latin1');
    v1.writeUInt32LE(1, 8);
    checkPrefix(v1, 'old.hlp');
    expect(() => checkPrefix(v1, 'old.hlp', true)).toThrow(`old.hlp: got v1 partition data, expected v${PART_VERSION}`);
    checkSegment(Uint8Array.of(1, 2, 3), { name: 'a', offset: 64, length: 3 }, 'old.hlp');
    // bytes that do not decode are Corrupt naming the column, not an Arrow error
    expect(caught(() => decodeSegment(Uint8Array.from({ length: 64 }, (_, i) => i * 37), 'old.hlp', 'a'))).toMatchObject({ code: 'Corrupt', column: 'a', path: 'old.hlp' });
  });

  it('says which version it got and which it expects', () => {
    const { file } = layout([{ name: 'a', data: vectorFromArray([1], new Int32()).data[0]! }]);
    file.writeUInt32LE(PART_VERSION + 1, 8);
    expect(() => checkPrefix(file.subarray(0, PREFIX_BYTES), 'x.hlp')).toThrow(`got v${PART_VERSION + 1} partition data, expected v1 or v${PART_VERSION}`);
    expect(() => checkPrefix(new Uint8Array(PREFIX_BYTES), 'x.hlp')).toThrow('bad magic');
    expect(() => checkPrefix(file.subarray(0, 16), 'x.hlp')).toThrow('bad magic');
  });
});

function caught(fn: () => void): Error & { code?: string } {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('decodeSegment of an unchecked (v1) segment', () => {
  it('refuses damaged metadata before apache-arrow decodes it, and buffers that do not hold the column', () => {
    const bytes = encodeSegment('depth', vectorFromArray(Array.from({ length: 1000 }, (_, i) => i / 2), new Float64()).data[0]!);
    expect(decodeSegment(bytes, 'parts/a.hlp', 'depth', false).length).toBe(1000);
    // the schema's custom-metadata vector given a length in the millions: apache-arrow looped over it
    // for seconds, or (another byte) ran the process out of memory
    const damaged = Array.from({ length: 120 }, (_, at) => {
      const b = bytes.slice();
      b[at] = 0xff;
      return b;
    });
    const refused = damaged.map((b) => {
      try {
        decodeSegment(b, 'parts/a.hlp', 'depth', false);
        return null;
      } catch (e) {
        expect(e).toMatchObject({ code: 'Corrupt', path: 'parts/a.hlp', column: 'depth' });
        return (e as Error).message;
      }
    });
    expect(refused.some((m) => m !== null && /^parts\/a\.hlp: column "depth" does not decode: message 0: a vector of \d+ elements/.test(m))).toBe(true);
    // a string column whose last offset points past its data
    const text = encodeSegment('name', vectorFromArray(['a', 'bb', 'ccc'], new Utf8()).data[0]!);
    const at = Buffer.from(text).indexOf(Buffer.from(new Int32Array([0, 1, 3, 6]).buffer));
    expect(at).toBeGreaterThan(0);
    const bad = text.slice();
    new DataView(bad.buffer).setInt32(at + 12, 1000, true);
    expect(() => decodeSegment(bad, 'parts/b.hlp', 'name', false)).toThrow(/^parts\/b\.hlp: column "name" does not decode: value 2 ends at offset 1000, past the \d+ bytes of data$/);
    // a segment whose CRC matched is decoded as it is
    expect(decodeSegment(text, 'parts/b.hlp', 'name').length).toBe(3);
  });
});
