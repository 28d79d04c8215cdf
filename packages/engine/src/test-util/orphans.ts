// Test check of a closed store: its partition files are exactly those its partition records name, no garbage left.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { open as openLmdb } from 'lmdb';
import { expect } from 'vitest';

/** Expects the files under `parts/` to be exactly the partition records' files, and no garbage records (the store is closed). */
export async function expectNoOrphans(path: string): Promise<void> {
  const db = openLmdb<Buffer, string>({ path: join(path, 'meta'), encoding: 'binary', readOnly: true });
  const referenced = new Set<string>();
  for (const { value } of db.getRange({ start: 'p/', end: 'p/\uffff' })) referenced.add(JSON.parse(value.toString()).file);
  // garbage of the killed child's old versions was collected by the open above: no reader was left
  expect([...db.getRange({ start: 'g/', end: 'g/\uffff' })]).toEqual([]);
  await db.close();
  const files = (await readdir(join(path, 'parts'), { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => join('parts', e.parentPath.slice(join(path, 'parts').length + 1), e.name));
  expect(files.sort()).toEqual([...referenced].sort());
}

/** Expects every file under `parts/` whose name carries writer token `token` (a dead process's) to be one a partition or garbage record refers to. */
export async function expectNoOrphansOf(path: string, token: string): Promise<void> {
  const db = openLmdb<Buffer, string>({ path: join(path, 'meta'), encoding: 'binary', readOnly: true });
  const referenced = new Set<string>();
  for (const prefix of ['p/', 'g/']) for (const { value } of db.getRange({ start: prefix, end: `${prefix}\uffff` })) referenced.add(JSON.parse(value.toString()).file);
  await db.close();
  const files = (await readdir(join(path, 'parts'), { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile() && e.name.includes(`-${token}-`))
    .map((e) => join('parts', e.parentPath.slice(join(path, 'parts').length + 1), e.name));
  expect(files.filter((f) => !referenced.has(f)), `files of the dead writer ${token}`).toEqual([]);
}
