import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-util/tmp.js';
import { openLmdbMetaStore } from './lmdb.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('LMDB metadata store', () => {
  it('keeps bigints and non-finite numbers exactly, and writes atomically', async () => {
    const dir = await tempDir();
    const meta = openLmdbMetaStore(dir.path);
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
});
