// A store written before partition files had checksums (test-util/fixtures/store-v3: v1 files, store
// v3) opens and reads as it was, takes new (v2) files beside its old ones, and merges both into a v2 file.
import { cp, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { type Store, openStore } from '../index.js';
import { openSnapshot } from '../read/snapshot.js';
import { tempDir } from '../test-util/tmp.js';
import { compactOnce } from '../write/compact.js';
import { openLmdbMetaStore } from './lmdb.js';
import { PART_VERSION, decodeFooter } from './format.js';
import { STORE_FORMAT, STORE_KEY } from './records.js';

const fixture = fileURLToPath(new URL('../test-util/fixtures/store-v3', import.meta.url));

// the rows fixtures/store-v3/make.mjs inserted (ids 0-159), less the two it deleted
const written = (i: number) => ({ id: BigInt(i), depth: i % 7 === 0 ? null : i * 1.5, name: i % 5 === 0 ? null : `n${i}`, ok: i % 3 === 0, geom: i % 11 === 0 ? null : `POINT (${(i % 360) - 180} ${(i % 180) - 90})` });
const ids = (to: number) => Array.from({ length: to }, (_, i) => i).filter((i) => i !== 3 && i !== 120);
const COLS = ['id', 'depth', 'name', 'ok', 'geom'];

describe('a store with partition files v1 (no checksums)', () => {
  it('opens, reads, takes new files and merges old and new into one v2 file', async () => {
    const dir = await tempDir();
    try {
      await cp(fixture, dir.path, { recursive: true });
      const before = await partFiles(dir.path);
      expect(await Promise.all(before.map(async (f) => (await readFile(join(dir.path, f))).readUInt32LE(8)))).toEqual([1, 1, 1]);
      let store = await openStore({ path: dir.path, workers: 0 });
      const t = store.table('obs');
      expect(await rowsOf(store)).toEqual(ids(160).map(written));
      // the hidden box columns of the old files serve spatial filters
      const inBox = ids(160).filter((i) => i % 11 !== 0 && (i % 360) - 180 <= -100 && (i % 180) - 90 <= -40);
      expect((await t.select('geom ~ "POLYGON ((-180 -90, -100 -90, -100 -40, -180 -40, -180 -90))"', { cols: ['id'] }).all()).map((r) => Number(r.id))).toEqual(inBox);
      await t.insert(Array.from({ length: 40 }, (_, i) => written(160 + i)));
      await store.close();
      // the new file is v2, with a checksum per segment; the store is marked current
      const added = (await partFiles(dir.path)).filter((f) => !before.includes(f));
      expect(added).toHaveLength(1);
      const file = await readFile(join(dir.path, added[0]!));
      expect(file.readUInt32LE(8)).toBe(PART_VERSION);
      expect(decodeFooter(file, added[0]!).columns.every((s) => typeof s.crc === 'number')).toBe(true);
      const meta = await openLmdbMetaStore(join(dir.path, 'meta'));
      expect(meta.get(STORE_KEY)).toEqual(STORE_FORMAT);
      await meta.close();
      // the part writer merges the three v1 files and the v2 one into a v2 file
      store = await openStore({ path: dir.path, workers: 1, compactRun: 2 });
      const ctx = (store as unknown as { ctx: StoreContext }).ctx;
      const snap = openSnapshot(ctx, 'obs');
      snap.release();
      while (await compactOnce(ctx, 'obs', snap.record.id));
      expect(await rowsOf(store)).toEqual(ids(200).map(written));
      await store.close();
      const merged = await partFiles(dir.path);
      expect(merged).toHaveLength(1);
      expect((await readFile(join(dir.path, merged[0]!))).readUInt32LE(8)).toBe(PART_VERSION);
    } finally {
      await dir.remove();
    }
  }, 60_000);
});

async function rowsOf(store: Store) {
  return (await store.table('obs').select(undefined, { cols: COLS }).all()).map((r) => Object.fromEntries(COLS.map((c) => [c, r[c]])));
}

async function partFiles(root: string): Promise<string[]> {
  return (await readdir(join(root, 'parts'), { recursive: true })).filter((f) => f.endsWith('.hlp')).map((f) => join('parts', f)).sort();
}
