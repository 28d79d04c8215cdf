// A commit applies all of its change or none: stale schema versions and vanished partitions conflict.
import { Field, Int32, Schema } from 'apache-arrow';
import { afterEach, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { openStore } from '../index.js';
import { openSnapshot } from '../read/snapshot.js';
import { rejected } from '../test-util/errors.js';
import { tempDir } from '../test-util/tmp.js';
import { commit } from './commit.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

it('refuses a change validated against an older schema or removing a partition already gone', async () => {
  const dir = await tempDir();
  const store = await openStore({ path: dir.path, workers: 0 });
  cleanups.push(dir.remove, () => store.close());
  const t = store.table('t');
  await t.create(new Schema([new Field('a', new Int32(), true)]));
  await t.insert([{ a: 1 }, { a: 2 }]);
  const ctx = (store as unknown as { ctx: StoreContext }).ctx;
  const snap = openSnapshot(ctx, 't');
  snap.release();
  const id = snap.record.id;
  await t.alter(new Schema([new Field('b', new Int32(), true, new Map([['prev_name', 'a']]))]));
  await rejected('Conflict', commit(ctx, 't', id, { add: [], remove: [], schemaVersion: 0 }));
  // the parts of the old snapshot were replaced by the alter: removing them again conflicts, atomically
  await rejected('Conflict', commit(ctx, 't', id, { add: [], remove: snap.parts, schemaVersion: 1 }));
  await rejected('NotFound', commit(ctx, 'nope', id, { add: [], remove: [], schemaVersion: 0 }));
  expect(await t.select().all()).toEqual([{ b: 1 }, { b: 2 }]);
});
