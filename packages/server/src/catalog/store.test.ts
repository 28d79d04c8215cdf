// The catalog store against its LMDB environment: what survives a reopen when writes race.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openServerDb, type ServerDb } from '../db.js';
import { manifests } from '../test-util/server.js';
import type { Manifest } from './resource.js';
import { parseOqs } from '../oqs/index.js';
import { CatalogStore } from './store.js';

let dir: string;
let db: ServerDb;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'halocline-catalog-'));
  db = await openServerDb(dir);
});
afterEach(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('CatalogStore', () => {
  it('an update racing a delete is a 404 and does not bring the resource back after a reopen', async () => {
    const store = new CatalogStore(db);
    const manifest = manifests.dataset('racy') as unknown as Manifest;
    const { metadata } = await store.create(manifest, 'apikey:a');
    const deleting = store.delete(metadata.uuid);
    const updating = expect(store.update(metadata.uuid, { ...manifest, metadata: { ...manifest.metadata, display_name: 'changed' } }, 'apikey:a')).rejects.toMatchObject({ status: 404 });
    expect(await deleting).toBe(true);
    await updating;
    expect(new CatalogStore(db).get(metadata.uuid)).toBeUndefined();
  });

  it('bounds a list page by the size of its resources too (at least one each), and next continues: every match once', async () => {
    const store = new CatalogStore(db);
    for (let i = 0; i < 5; i++) {
      const m = manifests.dataset(`wide-${i}`, 'raw', { facets: { notes: 'n'.repeat(i === 2 ? 5000 : 1000) } }) as unknown as Manifest;
      await store.create(m, 'apikey:a');
    }
    const all = parseOqs({});
    const pages: string[][] = [];
    let after: string | null = null;
    do {
      const page = store.list(all, { after, maxBytes: 3500 }) // two small resources (~1.5 kB each) fit, the 5 kB one comes alone;
      pages.push(page.results.map((r) => r.metadata.name));
      after = page.next;
    } while (after);
    expect(pages).toEqual([['wide-0', 'wide-1'], ['wide-2'], ['wide-3', 'wide-4']]);
  });
});
