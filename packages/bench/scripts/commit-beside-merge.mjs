// Ad-hoc: how long small inserts take while compaction merges beside them. One table gets sixteen
// 250k-row inserts (deltas the compactor merges into larger partitions on the part writer) while
// another gets 10k-row inserts in a loop (5 ms apart); prints the small inserts' median / p90 / max,
// the large inserts' median, the wait for the merges after the last, and the event loop's delay.
// usage: node --expose-gc scripts/commit-beside-merge.mjs <store dir (made afresh, removed after)>
// ENGINE=<path to an engine build's dist/index.js> measures that build instead of the workspace's
import { rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
const { openStore } = await import(process.env.ENGINE || '@halocline/engine');
const { generateTable, obsSchema } = await import('../dist/generate.js');
const [dir] = process.argv.slice(2);
const q = (a, p) => a.slice().sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))];
rmSync(dir, { recursive: true, force: true });
const store = await openStore({ path: dir, workers: 2 });
const big = store.table('big'); const small = store.table('small');
await big.create(obsSchema); await small.create(obsSchema);
const tenK = generateTable({ rows: 10_000, seed: 7 });
const quarter = generateTable({ rows: 250_000, seed: 1 });
let writing = true; const times = []; const bigT = [];
const h = monitorEventLoopDelay({ resolution: 1 }); h.enable();
const committer = (async () => { while (writing) { const t0 = performance.now(); await small.insert(tenK); times.push(performance.now() - t0); await new Promise((r) => setTimeout(r, 5)); } })();
for (let i = 0; i < 16; i++) { const t0 = performance.now(); await big.insert(quarter); bigT.push(performance.now() - t0); }
const mid = performance.now(); await store.idle(); const idleMs = performance.now() - mid;
writing = false; await committer; h.disable();
console.log(`small commits ${times.length}: median ${q(times, 0.5).toFixed(1)} p90 ${q(times, 0.9).toFixed(1)} max ${Math.max(...times).toFixed(1)}; big inserts median ${q(bigT, 0.5).toFixed(1)} ms; idle wait ${idleMs.toFixed(0)} ms; event loop delay p50 ${(h.percentile(50) / 1e6).toFixed(1)} p90 ${(h.percentile(90) / 1e6).toFixed(1)} max ${(h.max / 1e6).toFixed(1)} ms`);
console.log('small commit times in order:', times.map((t) => t.toFixed(0)).join(' '));
await store.close(); rmSync(dir, { recursive: true, force: true });
