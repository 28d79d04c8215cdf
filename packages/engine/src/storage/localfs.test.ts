import { open, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../test-util/tmp.js';
import { GATHER_BELOW, LocalBlobStore, WRITE_BYTES, writeAllSync, writeFileDurably } from './localfs.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function store() {
  const dir = await tempDir();
  cleanups.push(dir.remove);
  return { blobs: new LocalBlobStore(dir.path), root: dir.path };
}

describe('LocalBlobStore', () => {
  it('removes a file with one unlink; a missing file is no error, a folder is (remove is for files)', async () => {
    const { blobs } = await store();
    const w = await blobs.create('parts/t/a.hlp');
    await w.append(new Uint8Array(10));
    await w.commit();
    await blobs.remove('parts/t/a.hlp');
    expect(await blobs.list('parts')).toEqual([]);
    await blobs.remove('parts/t/a.hlp'); // already gone
    await blobs.remove('parts/none/b.hlp'); // never there, nor its folder
    await expect(blobs.remove('parts/t')).rejects.toThrow();
  });

  it('makes a file visible only on commit, with concurrent appends in order', async () => {
    const { blobs, root } = await store();
    const w = await blobs.create('parts/t/a.hlp');
    const chunks = Array.from({ length: 20 }, (_, i) => new Uint8Array(1000 + i).fill(i));
    for (const c of chunks) void w.append(c);
    expect((await blobs.list('parts')).map((f) => f.endsWith('.tmp'))).toEqual([true]); // only the temp file exists
    await w.commit();
    expect(await blobs.list('parts')).toEqual(['parts/t/a.hlp']);
    expect(await readFile(join(root, 'parts/t/a.hlp'))).toEqual(Buffer.concat(chunks));
    const into = new Uint8Array(new SharedArrayBuffer(5));
    await blobs.read('parts/t/a.hlp', 1000, into);
    expect([...into]).toEqual([1, 1, 1, 1, 1]);
    const reader = await blobs.openReader('parts/t/a.hlp');
    const a = new Uint8Array(3);
    const b = new Uint8Array(2);
    await Promise.all([reader.read(0, a), reader.read(2001, b)]);
    expect([...a, ...b]).toEqual([0, 0, 0, 2, 2]);
    await expect(reader.read(30_000, new Uint8Array(4))).rejects.toThrow('truncated');
    await reader.close();
    await expect(blobs.openReader('parts/t/none.hlp')).rejects.toThrow('cannot open data file');
  });

  it('writes the small appends of one turn together, large ones alone, around skipped stretches, all in place', async () => {
    const { blobs, root } = await store();
    // the FileHandle class the writer uses, to count its calls
    const probe = await open(join(root, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { write: (...a: unknown[]) => unknown; writev: (...a: unknown[]) => unknown };
    await probe.close();
    const write = vi.spyOn(proto, 'write');
    const writev = vi.spyOn(proto, 'writev');
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(fc.nat({ max: 300 }), fc.constantFrom(GATHER_BELOW, GATHER_BELOW + 7), fc.constant(-1)), { maxLength: 60 }), async (plan) => {
          write.mockClear();
          writev.mockClear();
          const w = await blobs.create('t/gather.bin');
          const expected: number[] = [];
          const holes: { at: number; bytes: Uint8Array }[] = [];
          let large = 0;
          for (const [k, n] of plan.entries()) {
            if (n === -1) {
              // a stretch left for a positioned write, made after the appends around it
              const bytes = Uint8Array.from({ length: 5 }, (_, i) => (k + i) & 255);
              holes.push({ at: w.skip(5), bytes });
              expected.push(...bytes);
              continue;
            }
            const bytes = Uint8Array.from({ length: n }, (_, i) => (k * 31 + i) & 255);
            if (n >= GATHER_BELOW) large++;
            void w.append(bytes);
            expected.push(...bytes);
          }
          for (const h of holes) void w.writeAt(h.at, h.bytes);
          await w.commit();
          expect([...(await readFile(join(root, 't/gather.bin')))]).toEqual(expected);
          // a call per large append and per positioned write; the small ones between them share one
          expect(write.mock.calls.length + writev.mock.calls.length).toBeLessThanOrEqual(large + holes.length + (large + holes.length + 1));
        }),
        { numRuns: 40 },
      );
    } finally {
      write.mockRestore();
      writev.mockRestore();
    }
  });

  it('fills a skipped stretch with positioned writes, around appends and data syncs', async () => {
    const { blobs, root } = await store();
    const w = await blobs.create('parts/t/s.hlp');
    void w.append(new Uint8Array([1, 2]));
    expect(w.skip(4)).toBe(2);
    void w.append(new Uint8Array([7]));
    expect(w.size).toBe(7);
    await w.writeAt(4, new Uint8Array([5, 6]));
    await w.flush();
    void w.writeAt(2, new Uint8Array([3, 4]));
    await w.commit();
    expect([...(await readFile(join(root, 'parts/t/s.hlp')))]).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('leaves nothing behind on abort, and reports a truncated read', async () => {
    const { blobs, root } = await store();
    const w = await blobs.create('parts/t/b.hlp');
    void w.append(new Uint8Array(10));
    await w.abort();
    expect(await readdir(join(root, 'parts/t'))).toEqual([]);
    const ok = await blobs.create('x/c');
    void ok.append(new Uint8Array(4));
    await ok.commit();
    await expect(blobs.read('x/c', 2, new Uint8Array(8))).rejects.toThrow('truncated');
    await expect(blobs.read('../etc/passwd', 0, new Uint8Array(1))).rejects.toThrow('invalid blob path');
  });

  it('streams a file or a byte range', async () => {
    const { blobs } = await store();
    const w = await blobs.create('f/x');
    void w.append(Buffer.from('hello world'));
    await w.commit();
    const text = async (s: NodeJS.ReadableStream) => {
      let out = '';
      for await (const c of s) out += String(c);
      return out;
    };
    expect(await text(blobs.stream('f/x'))).toBe('hello world');
    expect(await text(blobs.stream('f/x', { start: 6, end: 10 }))).toBe('world');
  });

  it('writes a file durably with synchronous gathered writes, more chunks than one writev takes', async () => {
    const { blobs, root } = await store();
    const chunks = Array.from({ length: 1300 }, (_, i) => new Uint8Array(i % 7).fill(i & 0xff));
    writeFileDurably(root, 'parts/t/b.hlp', chunks);
    expect(await blobs.list('parts')).toEqual(['parts/t/b.hlp']); // no temp file left
    expect(await readFile(join(root, 'parts/t/b.hlp'))).toEqual(Buffer.concat(chunks));
    expect(() => writeFileDurably(root, '../x.hlp', chunks)).toThrow('invalid blob path');
    // a failed write leaves nothing: the target is a directory, so the rename fails after the write
    await blobs.create('parts/t/dir/c.hlp').then((w) => w.abort());
    expect(() => writeFileDurably(root, 'parts/t/dir', [new Uint8Array(3)])).toThrow();
    expect((await readdir(join(root, 'parts/t'))).sort()).toEqual(['b.hlp', 'dir']);
  });

  it('writes in calls within one WRITE_BYTES block each, resuming short writes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 2 * WRITE_BYTES })), { maxLength: 10 }),
        fc.array(fc.integer({ min: 4000, max: WRITE_BYTES }), { minLength: 1, maxLength: 5 }),
        (sizes, caps) => {
          const chunks = sizes.map((n, i) => new Uint8Array(n).fill(i + 1));
          const total = sizes.reduce((a, b) => a + b, 0);
          const file = new Uint8Array(total);
          const calls: { position: number; asked: number }[] = [];
          // a kernel that writes at most a varying cap per call
          const write = (_fd: number, views: readonly NodeJS.ArrayBufferView[], position?: number | null) => {
            const asked = views.reduce((n, v) => n + v.byteLength, 0);
            const n = Math.min(asked, caps[calls.length % caps.length]!);
            calls.push({ position: position!, asked });
            let at = position!;
            for (const v of views) {
              const take = Math.min(v.byteLength, position! + n - at);
              file.set(new Uint8Array(v.buffer, v.byteOffset, take), at);
              at += take;
            }
            return n;
          };
          expect(writeAllSync(0, chunks, write as never)).toBe(total);
          expect(Buffer.compare(file, Buffer.concat(chunks))).toBe(0); // toEqual on 600 kB is slow
          // no call crosses a multiple of WRITE_BYTES (so none asks for more), retries of short writes included
          for (const c of calls) expect(Math.floor(c.position / WRITE_BYTES)).toBe(Math.floor((c.position + c.asked - 1) / WRITE_BYTES));
        },
      ),
      { numRuns: 60 },
    );
  });
});
