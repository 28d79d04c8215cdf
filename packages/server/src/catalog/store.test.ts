// The catalog store against its LMDB environment: what survives a reopen when writes race.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openServerDb, type ServerDb } from '../db.js';
import { manifests, square } from '../test-util/server.js';
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

  it('deleteAll removes a dataset, its observables and records its storage removal in one transaction: all or nothing', async () => {
    const store = new CatalogStore(db);
    const ds = await store.create(manifests.dataset('parent') as unknown as Manifest, 'apikey:a');
    const obs = await store.create(manifests.geoObservable('child', 'parent', square(0, 0, 1)) as unknown as Manifest, 'apikey:a');
    const uuids = [ds.metadata.uuid, obs.metadata.uuid];
    // the second removal fails inside the transaction: the first is rolled back with it
    const remove = db.resources.remove.bind(db.resources);
    let calls = 0;
    db.resources.remove = ((key: string) => {
      if (++calls === 2) throw new Error('disk full');
      return remove(key);
    }) as typeof db.resources.remove;
    await expect(store.deleteAll(uuids, { storageOf: ds })).rejects.toThrow('disk full');
    db.resources.remove = remove;
    for (const s of [store, new CatalogStore(db)]) {
      expect(uuids.map((u) => s.get(u)?.metadata.name)).toEqual(['parent', 'child']);
      expect(s.pendingRemovals()).toEqual([]);
    }
    expect(store.list(parseOqs({ '#ST_INTERSECTS': ['$spec.details.value', square(0, 0, 2)] })).results.map((r) => r.metadata.name)).toEqual(['child']);

    expect((await store.deleteAll(uuids, { storageOf: ds })).map((r) => r.metadata.name)).toEqual(['parent', 'child']);
    const reopened = new CatalogStore(db);
    expect(uuids.map((u) => reopened.get(u))).toEqual([undefined, undefined]);
    expect(reopened.pendingRemovals().map((r) => r.metadata.uuid)).toEqual([ds.metadata.uuid]);
    expect(reopened.removalPending(ds.metadata.uuid)).toBe(true);
    await reopened.removalDone(ds.metadata.uuid);
    expect(new CatalogStore(db).pendingRemovals()).toEqual([]);
  });
});
