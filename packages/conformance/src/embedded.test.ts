// The conformance suite against the embedded engine.
import { mkdtemp, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@halocline/engine';
import { afterAll, beforeAll } from 'vitest';
import { runConformance } from './index.js';

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'halocline-conf-'));
  store = await openStore({ path: dir, workers: 1 });
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

runConformance({ name: 'embedded engine', openTable: async () => store.table(randomUUID()) });
