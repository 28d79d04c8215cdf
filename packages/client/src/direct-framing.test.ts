// Body framing: chunked (sizes, extensions, trailers), content length and until-close, fed in any split.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { framingOf } from './direct-framing.js';

const headers = (h: Record<string, string>) => new Map(Object.entries(h));

function chunkedWire(payload: Uint8Array, sizes: number[], ext: boolean, trailer: boolean): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (let i = 0; at < payload.byteLength; i++) {
    const n = Math.min(payload.byteLength - at, Math.max(1, sizes[i % sizes.length]!));
    parts.push(Buffer.from(`${n.toString(16)}${ext ? ';name="v"' : ''}\r\n`), Buffer.from(payload.subarray(at, at + n)), Buffer.from('\r\n'));
    at += n;
  }
  parts.push(Buffer.from(`0\r\n${trailer ? 'x-cursor: abc\r\n' : ''}\r\n`));
  return Buffer.concat(parts);
}

// feeds `wire` in pieces cut at `cuts`; returns the payload, the bytes consumed and whether the body ended
function feedAll(f: ReturnType<typeof framingOf>, wire: Buffer, cuts: number[]): { payload: Buffer; used: number } {
  const out: Buffer[] = [];
  const bounds = [...new Set(cuts.map((c) => c % (wire.byteLength + 1)))].sort((a, b) => a - b);
  let used = 0;
  let prev = 0;
  for (const end of [...bounds, wire.byteLength]) {
    const piece = wire.subarray(prev, end);
    prev = end;
    let at = 0;
    while (at < piece.byteLength && !f.done) at += f.feed(piece.subarray(at), (v) => out.push(Buffer.from(v)));
    used += at;
  }
  return { payload: Buffer.concat(out), used };
}

describe('framingOf', () => {
  it('chunked: the payload comes out whole and exact for any chunk sizes and any split of the wire bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean(), fc.array(fc.nat(), { maxLength: 12 }), (payload, sizes, ext, trailer, cuts) => {
        const wire = chunkedWire(payload, sizes, ext, trailer);
        const next = Buffer.from('HTTP/1.1 200 OK\r\n'); // the next answer on the connection is not taken
        const f = framingOf(200, headers({ 'transfer-encoding': 'chunked' }));
        const r = feedAll(f, Buffer.concat([wire, next]), cuts);
        expect(f.done).toBe(true);
        expect(f.exact).toBe(true);
        expect(r.used).toBe(wire.byteLength);
        expect(r.payload.equals(Buffer.from(payload))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('content-length: exactly that many bytes; none for 204 and 304', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(), { maxLength: 6 }), (payload, cuts) => {
        const f = framingOf(200, headers({ 'content-length': String(payload.byteLength) }));
        const r = feedAll(f, Buffer.concat([Buffer.from(payload), Buffer.from('extra')]), cuts);
        expect(f.done).toBe(true);
        expect(r.used).toBe(payload.byteLength);
        expect(r.payload.equals(Buffer.from(payload))).toBe(true);
      }),
    );
    expect(framingOf(204, headers({ 'content-length': '10' })).done).toBe(true);
    expect(framingOf(304, headers({})).done).toBe(true);
  });

  it('neither: the body lasts until the connection closes (not reusable)', () => {
    const f = framingOf(200, headers({}));
    const r = feedAll(f, Buffer.from('abcdef'), [2]);
    expect(r.payload.toString()).toBe('abcdef');
    expect(f.done).toBe(false);
    expect(f.exact).toBe(false);
  });

  it('refuses a bad chunk size, chunk data longer than its size, an endless size line and a bad content-length', () => {
    const feed = (wire: string | Buffer) => {
      const f = framingOf(200, headers({ 'transfer-encoding': 'chunked' }));
      f.feed(Buffer.from(wire), () => {});
    };
    expect(() => feed('zz\r\n')).toThrow(/invalid chunk size "zz"/);
    expect(() => feed('2\r\nabc\r\n')).toThrow(/longer than its size/);
    expect(() => feed(Buffer.alloc(9000, 0x31))).toThrow(/too long/);
    expect(() => framingOf(200, headers({ 'content-length': '-1' }))).toThrow(/invalid content-length "-1"/);
  });
});
