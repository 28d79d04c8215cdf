// Ad-hoc: a stored obs and obs_idx as the bench loads them (node obs-store.mjs <dir> <rows>), for scripts like replace-rows-cpu.mjs.
import { openStore } from '@halocline/engine';
import { generateBatches, obsSchema } from '../dist/generate.js';
import { obsIndexedSchema } from '../dist/load.js';
const [dir, rows] = process.argv.slice(2);
const store = await openStore({ path: dir, workers: 2 });
const a = store.table('obs'), b = store.table('obs_idx');
await a.create(obsSchema); await b.create(obsIndexedSchema);
for (const batch of generateBatches({ rows: Number(rows), seed: 42 })) { await a.insert(batch); await b.insert(batch); }
await store.idle(); await store.close();
console.log('done');
