// Ad-hoc: W1's count over a copy of a stored `obs`, fresh and after 40 counts of other queries in the
// same process (scan workers that have run other kernels), with the scan workers' CPU a read; and,
// with `replaces`, after six deletes and six batch replaces of 1% bands and with the store reopened
// (docs/performance-history.md, W1 session 18: the loops were deoptimised by other scans and ran
// ~1.4x slower from then on).
//
// usage: node --expose-gc scripts/counts-after-queries.mjs <engine package dir> <template store dir> [ranges|above|mixed|replaces]
// <template store dir>: a store with the bench's `obs` (scripts/w1c-probe.mjs makes one); copied per run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [enginePkg, template, mode = 'ranges'] = process.argv.slice(2);
const engine = await import(pathToFileURL(resolve(enginePkg, 'dist/index.js')).href);
const dir = mkdtempSync(join(tmpdir(), 'counts-after-'));
execFileSync('cp', ['-a', template, join(dir, 'store')]);
let store = await engine.openStore({ path: join(dir, 'store') });
// CPU of every thread but the main one (the scan workers, mostly)
const workers = () => {
  let ms = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    if (tid === String(process.pid)) continue;
    try {
      ms += Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    } catch { /* gone */ }
  }
  return ms;
};
async function counts(name) {
  const t = store.table('obs');
  const read = () => t.select('depth > 5500').count();
  for (const end = performance.now() + 1000; performance.now() < end; ) await read();
  const times = [];
  const c0 = workers();
  for (const start = performance.now(); performance.now() - start < 1500; ) {
    const t0 = performance.now();
    await read();
    times.push(performance.now() - t0);
  }
  const cpu = (workers() - c0) / times.length;
  times.sort((a, b) => a - b);
  console.log(`${name}: median ${times[times.length >> 1].toFixed(3)} ms, workers ${cpu.toFixed(2)} ms CPU a read (${times.length} reads)`);
}
await counts('fresh');
const t = store.table('obs');
if (mode === 'replaces') {
  for (let i = 0; i < 6; i++) await t.transaction((tx) => tx.delete('depth >= $a and depth < $b', { vars: { a: 1000 + 60 * i, b: 1060 + 60 * i } }));
  for (let i = 0; i < 6; i++) {
    await t.transaction(async (tx) => {
      for await (const b of tx.replace('depth >= $a and depth < $b', { vars: { a: 3000 + 60 * i, b: 3060 + 60 * i } }).batches()) await tx.insert(b);
    });
  }
  await store.idle();
  await counts('after six deletes and six replaces');
  await store.close();
  store = await engine.openStore({ path: join(dir, 'store') });
  await counts('the same store reopened');
} else {
  for (let i = 0; i < 40; i++) {
    const [query, vars] = {
      ranges: ['depth >= $a and depth < $b', { a: i * 10, b: i * 10 + 2000 }],
      above: [`depth > ${5000 + i}`, undefined],
      mixed: [[`temp > ${i}`, `depth < ${100 + i} and temp > 3`, `salinity > ${30 + i / 10} or depth > 5990`, `depth >= ${i * 10} and depth < ${i * 10 + 60}`][i % 4], undefined],
    }[mode];
    await t.select(query, vars ? { vars } : {}).count();
  }
  await counts(`after 40 other queries (${mode})`);
}
await store.close();
rmSync(dir, { recursive: true, force: true });
