// The raw file store's listing: pages bounded by count and by the size of the entries.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
