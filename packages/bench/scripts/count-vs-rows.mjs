// Ad-hoc: how W1's idle count (depth > 5500) grows with the table, as W1C's writer grows it: the
// median of 500 counts (after 2 s untimed) on a copy of a stored obs, then after each 100 more
// 10k-row commits (compaction settled). Session 20: 2.49 / 2.70 / 2.88 / 3.08 ms at 10 / 11 / 12 / 13M rows.
// node --expose-gc count-vs-rows.mjs <stored obs, e.g. w1c-probe.mjs's template> <scratch dir>
import { openStore } from '@halocline/engine';
import { execFileSync } from 'node:child_process';
import { generateTable } from '../dist/generate.js';

const [template, dir] = process.argv.slice(2);
execFileSync('rm', ['-rf', dir]);
execFileSync('cp', ['-a', template, dir]);
const store = await openStore({ path: dir });
const t = store.table('obs');
const batch = generateTable({ rows: 10_000, seed: 43 });
const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const count = () => t.select('depth > 5500').count();
async function window(label) {
  for (const end = performance.now() + 2000; performance.now() < end; ) await count();
  const ms = [];
  for (let i = 0; i < 500; i++) {
    const start = performance.now();
    await count();
    ms.push(performance.now() - start);
  }
  console.log(`${label}: ${await t.select().count()} rows, count median ${median(ms).toFixed(2)} ms`);
}
await window('as stored');
for (let round = 1; round <= 3; round++) {
  for (let i = 0; i < 100; i++) await t.insert(batch);
  await store.idle();
  await window(`+${round * 100} commits`);
}
await store.close();
execFileSync('rm', ['-rf', dir]);
