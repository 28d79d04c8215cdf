import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../store.js';
import { rejected } from '../test-util/errors.js';
import { tempDir } from '../test-util/tmp.js';
import { openLmdbMetaStore } from './lmdb.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('LMDB metadata store', () => {
  it('keeps bigints and non-finite numbers exactly, and writes atomically', async () => {
    const dir = await tempDir();
    const meta = await openLmdbMetaStore(dir.path);
    cleanups.push(dir.remove, () => meta.close());
    const value = { big: 2n ** 63n - 1n, neg: -5n, inf: Infinity, ninf: -Infinity, nan: NaN, n: 1.5, s: 'x', nil: null };
    await meta.write((tx) => tx.put('a/1', value));
    expect(meta.get('a/1')).toEqual(value);
    await expect(
      meta.write((tx) => {
        tx.put('a/2', 1);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(meta.get('a/2')).toBeUndefined();
    await meta.write((tx) => tx.put('b/1', 2));
    expect(meta.range('a/').map(([k]) => k)).toEqual(['a/1']);
  });

  it('lists the keys of a prefix from a given key on, inside and outside write transactions', async () => {
    const dir = await tempDir();
    const meta = await openLmdbMetaStore(dir.path);
    cleanups.push(dir.remove, () => meta.close());
    await meta.write((tx) => ['d/p/001', 'd/p/002', 'd/p/010', 'd/q/001', 'd/pp/005'].forEach((k) => tx.put(k, 1)));
    expect(meta.keys('d/p/')).toEqual(['d/p/001', 'd/p/002', 'd/p/010']);
    expect(meta.keys('d/p/', 'd/p/002')).toEqual(['d/p/002', 'd/p/010']);
    expect(meta.keys('d/p/', 'd/p/011')).toEqual([]);
    expect(meta.keys('d/p/', 'd/')).toEqual(['d/p/001', 'd/p/002', 'd/p/010']); // before the prefix: the whole prefix
    expect(await meta.write((tx) => tx.keys('d/p/', 'd/p/003'))).toEqual(['d/p/010']);
  });
});

describe('binary values', () => {
  it('round-trip Uint8Arrays inside records (as copies) next to tagged JSON values', async () => {
    const { encode, decode } = await import('./lmdb.js');
    const value = { a: new Uint8Array([0, 1, 255]), nested: [{ b: new Uint8Array(0) }, 2n], inf: -Infinity, s: 'x' };
    const raw = encode(value);
    expect(raw[0]).toBe(0);
    const back = decode(Buffer.concat([raw])) as typeof value;
    expect(back).toEqual(value);
    expect(back.a).toBeInstanceOf(Uint8Array);
    expect(back.a.buffer).not.toBe(raw.buffer);
    expect(decode(encode({ plain: 1 }))).toEqual({ plain: 1 });
  });

});

describe('a damaged data file', () => {
  it('is refused with Corrupt when it is not an LMDB environment, instead of lmdb crashing the process', async () => {
    const good = await tempDir();
    const meta = await openLmdbMetaStore(good.path);
    await meta.write((tx) => tx.put('a', 1));
    await meta.close();
    const valid = await readFile(join(good.path, 'data.mdb'));
    await good.remove();
    // each of these made lmdb segfault (or bus-error) the whole process on open
    const damaged = {
      garbage: Buffer.from('garbage'.repeat(1000)),
      zeros: Buffer.alloc(valid.length),
      truncated: valid.subarray(0, 100),
    };
    for (const [what, bytes] of Object.entries(damaged)) {
      const dir = await tempDir();
      cleanups.push(dir.remove);
      await writeFile(join(dir.path, 'data.mdb'), bytes);
      const e = await rejected('Corrupt', openLmdbMetaStore(dir.path));
      expect(e.path, what).toBe(join(dir.path, 'data.mdb'));
      expect(e.message).toMatch(/is not an LMDB environment/);
    }
    // through openStore, the readers' environment too (the metadata is closed again)
    const store = await tempDir();
    cleanups.push(store.remove);
    await mkdir(join(store.path, 'readers'), { recursive: true });
    await writeFile(join(store.path, 'readers', 'data.mdb'), damaged.zeros);
    expect((await rejected('Corrupt', openStore({ path: store.path, workers: 0 }))).path).toBe(join(store.path, 'readers', 'data.mdb'));
    await writeFile(join(store.path, 'readers', 'data.mdb'), Buffer.alloc(0));
    await (await openStore({ path: store.path, workers: 0 })).close();
    // an empty file is a new environment, as LMDB makes it
    const fresh = await tempDir();
    await writeFile(join(fresh.path, 'data.mdb'), Buffer.alloc(0));
    const again = await openLmdbMetaStore(fresh.path);
    cleanups.push(fresh.remove, () => again.close());
    expect(again.get('a')).toBeUndefined();
  });

  it('is refused with Corrupt when cut short of the pages its newest meta page says are in use, instead of a SIGBUS', async () => {
    const good = await tempDir();
    cleanups.push(good.remove);
    const meta = await openLmdbMetaStore(good.path);
    for (let t = 0; t < 8; t++) await meta.write((tx) => Array.from({ length: 25 }, (_, i) => tx.put(`k/${t}/${i}`, 'v'.repeat(1000 + i))));
    await meta.close();
    const valid = await readFile(join(good.path, 'data.mdb'));
    const pages = valid.length / 4096;
    expect(pages).toBeGreaterThan(20);
    // each cut (whole pages, or within the last one) made lmdb bus-error the process when it read the missing pages
    for (const size of [2 * 4096, 3 * 4096, (pages >> 1) * 4096, valid.length - 4096, valid.length - 1]) {
      const dir = await tempDir();
      cleanups.push(dir.remove);
      await writeFile(join(dir.path, 'data.mdb'), valid.subarray(0, size));
      const e = await rejected('Corrupt', openLmdbMetaStore(dir.path));
      expect(e.path).toBe(join(dir.path, 'data.mdb'));
      expect(e.message).toContain(`is cut short: ${size} bytes, but its pages in use reach ${valid.length}`);
    }
    // whole, or with bytes past its last page, it opens and reads
    for (const bytes of [valid, Buffer.concat([valid, Buffer.alloc(3 * 4096)])]) {
      const dir = await tempDir();
      cleanups.push(dir.remove);
      await writeFile(join(dir.path, 'data.mdb'), bytes);
      const back = await openLmdbMetaStore(dir.path);
      expect(back.get('k/7/24')).toBe('v'.repeat(1024));
      await back.close();
    }
  });
});
