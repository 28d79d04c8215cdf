// W1C at a fixed commit rate: W1's count over a copy of a stored `obs`, idle for a window, then beside a
// writer committing 10k-row inserts paced at <rate> a second (as DuckDB's writer is paced in the bench),
// so two builds compare at the same table growth; or, with --deltas N, over N uncompacted 10k-row deltas
// first and no writer (the partitions a busy window leaves). Medians of the reads, commits a second,
// the main thread's CPU per read (docs/performance-history.md, W1C session 18).
//
// usage: node --expose-gc scripts/w1c-paced.mjs <engine package dir> <template store dir> [rate] [windowMs] [--deltas N]
// <template store dir>: a store with the bench's `obs` (scripts/w1c-probe.mjs makes one); copied per run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [enginePkg, template, rateArg = '25', windowArg = '3000'] = process.argv.slice(2);
const deltas = process.argv.includes('--deltas') ? Number(process.argv[process.argv.indexOf('--deltas') + 1]) : 0;
const WINDOW = Number(windowArg);
const engine = await import(pathToFileURL(resolve(enginePkg, 'dist/index.js')).href);
const gen = await import(pathToFileURL(resolve(enginePkg, '../bench/dist/generate.js')).href);
const dir = mkdtempSync(join(tmpdir(), 'w1c-paced-'));
execFileSync('cp', ['-a', template, join(dir, 'store')]);
const store = await engine.openStore({ path: join(dir, 'store'), ...(deltas > 0 ? { compactRun: 100_000 } : {}) });
const t = store.table('obs');
const batch = gen.generateTable({ rows: 10_000, seed: 43 });
for (let i = 0; i < deltas; i++) await t.insert(batch);
await store.idle();
const read = () => t.select('depth > 5500').count();
const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
async function window(ms) {
  const times = [];
  const c0 = cpu();
  for (const start = performance.now(); performance.now() - start < ms; ) {
    const t0 = performance.now();
    await read();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], reads: times.length, mainCpu: (cpu() - c0) / times.length };
}
const show = (name, w) => `${name} median ${w.median.toFixed(3)} ms (${w.reads} reads, main thread ${w.mainCpu.toFixed(3)} ms CPU a read)`;
for (const end = performance.now() + 1500; performance.now() < end; ) await read();
const idle = await window(WINDOW);
if (deltas > 0) console.log(`${deltas} deltas: ${show('reads', idle)}`);
else {
  let stop = false;
  let commits = 0;
  const slot = 1000 / Number(rateArg);
  const writer = (async () => {
    while (!stop) {
      const t0 = performance.now();
      await t.insert(batch);
      commits++;
      const rest = slot - (performance.now() - t0);
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
    }
  })();
  await window(2000); // the writer's code compiled, compaction at its cadence
  const before = commits;
  const busy = await window(WINDOW);
  const rate = (commits - before) / (WINDOW / 1000);
  stop = true;
  await writer;
  console.log(`${show('idle', idle)}; ${show('busy', busy)}; ${rate.toFixed(1)} commits/s; ratio ${(busy.median / idle.median).toFixed(2)}`);
}
await store.close();
rmSync(dir, { recursive: true, force: true });
