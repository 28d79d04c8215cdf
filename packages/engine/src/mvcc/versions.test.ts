// Old versions: their files stay while a reader pins them and go afterwards; alter and drop respect deletes.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Field, Float64, Int32, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { openStore } from '../index.js';
import { tempDir } from '../test-util/tmp.js';

const schema = new Schema([new Field('id', new Int32(), false), new Field('v', new Float64(), true)]);
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, v: from + i }));

async function files(path: string): Promise<string[]> {
  const entries = await readdir(join(path, 'parts'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name).sort();
}

describe('versions and their files', () => {
  it('keeps the files of a replaced version while a reader pins it, removes them after', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 0, partitionRows: 1000 });
    try {
      const t = store.table('t');
      await t.create(schema);
      await t.insert(rows(0, 100));
      const [original] = await files(dir.path);
      const reader = t.select().rows()[Symbol.asyncIterator]();
      expect((await reader.next()).value).toEqual({ id: 0, v: 0 });
      // more than a quarter deleted: compaction rewrites the partition without them
      await t.transaction(async (tx) => void (await tx.delete('id < 50')));
      await waitFor(async () => (await files(dir.path)).length === 2); // the rewritten partition is committed
      expect(await files(dir.path)).toContain(original);
      let n = 1;
      for (let r = await reader.next(); !r.done; r = await reader.next()) n++;
      expect(n).toBe(100); // the old snapshot, whole
      // the garbage collection runs in the background once the reader released its pin (however loaded the machine)
      await waitFor(async () => !(await files(dir.path)).includes(original!));
      expect(await t.select().count()).toBe(50);
    } finally {
      await store.close();
      await dir.remove();
    }
  });

  it('alter keeps deleted rows deleted; drop removes schema, rows, deletion vectors and files', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 0, partitionRows: 1000, compactRun: 100 });
    try {
      const t = store.table('t');
      await t.create(schema);
      await t.insert(rows(0, 10));
      await t.transaction(async (tx) => void (await tx.delete('id == 4')));
      await t.alter(new Schema([new Field('id', new Int32(), false), new Field('w', new Float64(), true, new Map([['prev_name', 'v']]))]));
      expect((await t.select().all()).map((r) => r.id)).toEqual([0, 1, 2, 3, 5, 6, 7, 8, 9]);
      await t.transaction(async (tx) => void (await tx.delete('id == 5')));
      await t.drop();
      expect(await t.schema()).toBeUndefined();
      const meta = (store as unknown as { ctx: StoreContext }).ctx.meta;
      // files go in the background, then their garbage entries (however loaded the machine)
      await waitFor(async () => (await files(dir.path)).length === 0 && meta.range('g/').length === 0);
      for (const prefix of ['t/', 'p/', 'd/', 'g/', 'm/']) expect(meta.range(prefix), prefix).toEqual([]);
    } finally {
      await store.close();
      await dir.remove();
    }
  });
});

async function waitFor(cond: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached');
}
