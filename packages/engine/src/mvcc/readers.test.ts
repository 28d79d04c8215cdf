// The reader table: a process killed with kill -9 whose pid a later process got is dead, not live.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Field, Int32, Schema } from 'apache-arrow';
import { expect, it, onTestFinished } from 'vitest';
import { openStore } from '../index.js';
import type { StoreContext } from '../context.js';
import { openShared } from '../storage/lmdb-shared.js';
import { partFile, tableKey, type TableRecord } from '../storage/records.js';
import { expectNoOrphans } from '../test-util/orphans.js';
import { tempDir } from '../test-util/tmp.js';
import { Readers } from './readers.js';

const schema = new Schema([new Field('id', new Int32(), false)]);

// registers a process that died mid-write: its registration, a floor at version 0 on `tableId` and a half-written file
async function deadProcess(path: string, token: string, registration: object, tableId: string): Promise<string> {
  const handle = await openShared<unknown>(join(path, 'readers'), { noSync: true, encoding: 'json' });
  await handle.db.put(`x/${token}`, registration);
  await handle.db.put(`r/${tableId}/${token}`, 0);
  await handle.release();
  const file = partFile(tableId, `${Date.now().toString(36)}-${token}-00000000`);
  await mkdir(join(path, file, '..'), { recursive: true });
  await writeFile(join(path, file), 'half written');
  return file;
}

it('counts a registration whose pid now belongs to a later process as dead: its floor goes, its files are orphans', async () => {
  const dir = await tempDir();
  onTestFinished(dir.remove);
  // the store with the table: three deltas that compaction merges, retiring them (garbage)
  const store = await openStore({ path: dir.path, workers: 0, compactRun: 2 });
  const t = store.table('t');
  await t.create(schema);
  await t.insert([{ id: 0 }]);
  const tableId = (store as unknown as { ctx: StoreContext }).ctx.meta.get<TableRecord>(tableKey('t'))!.id;
  // a killed process that ran under this very pid (a container's server, restarted after kill -9, gets its pid again)
  const file = await deadProcess(dir.path, 'deadbeef', { pid: process.pid, start: 'another boot:1' }, tableId);
  const readers = await Readers.open(dir.path);
  try {
    expect(readers.liveTokens().has('deadbeef')).toBe(false);
    // opening forgot the registration and its floor
    expect(await registered(dir.path, 'deadbeef')).toEqual([]);
  } finally {
    await readers.close();
  }
  await t.insert([{ id: 1 }]);
  await t.insert([{ id: 2 }]);
  await store.idle();
  await store.close();
  // the next open removes the dead process's file; its floor held back no garbage
  await (await openStore({ path: dir.path, workers: 0 })).close();
  await expectNoOrphans(dir.path);
  expect(file).toContain('deadbeef');
});

it('keeps counting a live registration as live: this process under its own start, and one written without a start', async () => {
  const dir = await tempDir();
  onTestFinished(dir.remove);
  const store = await openStore({ path: dir.path, workers: 0 });
  await store.table('t').create(schema);
  const tableId = (store as unknown as { ctx: StoreContext }).ctx.meta.get<TableRecord>(tableKey('t'))!.id;
  await store.close();
  const other = await Readers.open(dir.path); // another store of this process: the same pid and start
  const file = await deadProcess(dir.path, 'cafecafe', { pid: process.pid }, tableId); // registered before starts were
  const readers = await Readers.open(dir.path);
  try {
    expect(readers.liveTokens()).toEqual(new Set([readers.token, other.token, 'cafecafe']));
    expect(readers.othersFloor(tableId)).toBe(0);
  } finally {
    await readers.close();
    await other.close();
  }
  await (await openStore({ path: dir.path, workers: 0 })).close();
  expect((await stat(join(dir.path, file))).isFile()).toBe(true); // kept: its writer may live
  expect(await registered(dir.path, 'cafecafe')).toEqual([`r/${tableId}/cafecafe`, 'x/cafecafe']);
});

// the reader table's keys of a token: its registration and floors
async function registered(path: string, token: string): Promise<string[]> {
  const handle = await openShared<unknown>(join(path, 'readers'), { noSync: true, encoding: 'json' });
  const keys = [...handle.db.getKeys()].filter((k) => String(k).endsWith(`/${token}`)).map(String);
  await handle.release();
  return keys.sort();
}
