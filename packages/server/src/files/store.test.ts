// The raw file store: listing pages bounded by count and by the size of the entries; leftovers of a crash.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openServerDb, type ServerDb } from '../db.js';
import { parseOqs } from '../oqs/index.js';
import { RawFileStore } from './store.js';

let dir: string;
let db: ServerDb;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'halocline-files-'));
  db = await openServerDb(dir);
});
afterEach(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('RawFileStore.list', () => {
  it('ends a page at about maxBytes of entry JSON (at least one entry) and continues with next: every file once', async () => {
    const files = new RawFileStore(db, dir);
    for (let i = 0; i < 5; i++) await files.create('ds', { name: `f${i}`, metadata: { notes: 'n'.repeat(i === 2 ? 5000 : 1000) } });
    const pages: string[][] = [];
    let after = 0;
    for (;;) {
      const page = files.list('ds', parseOqs({}), after, 100, 3000); // two small entries (~1.3 kB each) fit, the 5 kB one comes alone
      pages.push(page.results.map((f) => f.name));
      if (page.next === null) break;
      after = Number(page.next);
    }
    expect(pages).toEqual([['f0', 'f1'], ['f2'], ['f3', 'f4']]);
  });
});

describe('RawFileStore.removeLeftovers', () => {
  it('removes temp files and blobs no entry points at (a crash between a delete commit and the removal of its bytes); keeps the rest', async () => {
    const files = new RawFileStore(db, dir);
    await files.provision('ds');
    await files.create('ds', { name: 'kept.bin' });
    await files.upload('ds', 'kept.bin', Readable.from([Buffer.from('keep me')]), { overwrite: false, limit: 1024 });
    await files.create('ds', { name: 'gone.bin' });
    await files.upload('ds', 'gone.bin', Readable.from([Buffer.from('delete me')]), { overwrite: false, limit: 1024 });
    const blobOfGone = files.get('ds', 'gone.bin').blob!;
    // the delete's commit without the removal of the bytes that follows it
    const before = await readdir(join(dir, 'raw', 'ds'));
    await db.atomic(() => {
      const rec = files.get('ds', 'gone.bin');
      db.files.remove(['ds', 'f', rec.seq]);
      db.files.remove(['ds', 'n', 'gone.bin']);
    });
    await writeFile(join(dir, 'raw', 'ds', '.tmp-0123456789abcdef'), 'half an upload');
    expect(before).toContain(blobOfGone);

    expect(await files.removeLeftovers()).toBe(2);
    expect(await readdir(join(dir, 'raw', 'ds'))).toEqual([files.get('ds', 'kept.bin').blob]);
    const { stream } = await files.open('ds', 'kept.bin');
    expect(Buffer.concat(await stream.toArray()).toString()).toBe('keep me');
    expect(await files.removeLeftovers()).toBe(0);
  });
});
