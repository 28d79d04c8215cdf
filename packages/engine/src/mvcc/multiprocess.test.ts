// Several processes on one store: interleaved commits, first-committer-wins across processes, pins and orphans.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Field, Int32, Schema } from 'apache-arrow';
import { expect, it } from 'vitest';
import { openStore } from '../index.js';
import type { StoreContext } from '../context.js';
import { runChild as run } from '../test-util/mp.js';
import { soakInt, soakTimeout } from '../test-util/soak.js';
import { tempDir } from '../test-util/tmp.js';

// a soak run sets the writers' steps (test-util/soak.ts); CI's is the default
const STEPS = soakInt('HALOCLINE_SOAK_STEPS', 12);
const CONTENDED = 15;

it('interleaves commits of several processes without losing or double-applying any', async () => {
  const dir = await tempDir();
  try {
    const store = await openStore({ path: dir.path, workers: 0 });
    const t = store.table('shared');
    await t.create(new Schema([new Field('proc', new Int32(), false), new Field('i', new Int32(), false), new Field('k', new Int32(), false)]));
    await t.insert(Array.from({ length: CONTENDED }, (_, k) => ({ proc: -1, i: 0, k })));
    await store.close();

    const runs = await Promise.all([
      run(dir.path, 'writer', '1', STEPS),
      run(dir.path, 'writer', '2', STEPS),
      run(dir.path, 'contend', '3', CONTENDED),
      run(dir.path, 'contend', '4', CONTENDED),
      run(dir.path, 'reader', '5', 6),
    ]);
    const outcomes = runs.slice(2, 4).flat();
    for (let k = 0; k < CONTENDED; k++) expect(outcomes.filter((l) => l === `won ${k}`), `row ${k}`).toHaveLength(1);

    const again = await openStore({ path: dir.path, workers: 0 });
    try {
      const s = again.table('shared');
      const perWriter = 20 * STEPS - 10 * (STEPS - 3);
      expect(await s.select('proc == 1').count()).toBe(perWriter);
      expect(await s.select('proc == 2').count()).toBe(perWriter);
      expect(await s.select('proc == -1').count()).toBe(0);
      expect(await s.select('k < 10 and i < $i and proc > 0', { vars: { i: STEPS - 3 } }).count()).toBe(0);
      // every file on disk is a committed partition (garbage of the children collected, no orphans):
      // the reads above released their snapshots, which set off a collection; wait for it, not a while
      await again.idle();
      const ctx = (again as unknown as { ctx: StoreContext }).ctx;
      const referenced = ctx.meta.range<{ file: string }>('p/').map(([, p]) => p.file.split('/').pop());
      const entries = await readdir(join(dir.path, 'parts'), { recursive: true, withFileTypes: true });
      expect(entries.filter((e) => e.isFile()).map((e) => e.name).sort()).toEqual(referenced.sort());
    } finally {
      await again.close();
    }
  } finally {
    await dir.remove();
  }
}, soakTimeout(60_000, 12, STEPS));
