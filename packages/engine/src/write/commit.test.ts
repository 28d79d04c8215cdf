// A commit applies all of its change or none: stale schema versions and vanished partitions conflict.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Field, Int32, Schema } from 'apache-arrow';
import { afterEach, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { openStore } from '../index.js';
import { openSnapshot } from '../read/snapshot.js';
import { type TableRecord, partKey, partsFolder, tableKey } from '../storage/records.js';
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

it('refuses to write once the metadata store has lost a committed version this process read, naming it', async () => {
  const dir = await tempDir();
  const store = await openStore({ path: dir.path, workers: 0 });
  cleanups.push(dir.remove, () => store.close());
  const t = store.table('t');
  await t.create(new Schema([new Field('a', new Int32(), true)]));
  await t.insert([{ a: 1 }]);
  const ctx = (store as unknown as { ctx: StoreContext }).ctx;
  const before = openSnapshot(ctx, 't');
  before.release();
  await t.insert([{ a: 2 }]);
  expect(await t.select().count()).toBe(2); // this process read the second version
  // the store loses the second commit (as a writer that built on the older meta page would leave
  // it): the table record and the partition record go back to what they were before it
  const lost = openSnapshot(ctx, 't');
  lost.release();
  const gone = lost.parts.filter((p) => !before.parts.some((q) => q.id === p.id));
  await ctx.meta.write((tx) => {
    tx.put(tableKey('t'), before.record);
    for (const p of gone) tx.remove(partKey(before.record.id, p.id));
  });
  const files = async () => (await readdir(join(dir.path, partsFolder), { recursive: true })).sort();
  const kept = await files();
  const e = await rejected('Corrupt', t.insert([{ a: 3 }]));
  expect(e.message).toMatch(/table "t" is at version 1, but this process read version 2 of it: the metadata store lost a committed change/);
  // nothing written: the record as the loss left it, and no new file
  expect(ctx.meta.get<TableRecord>(tableKey('t'))).toEqual(before.record);
  expect(await files()).toEqual(kept);
});
