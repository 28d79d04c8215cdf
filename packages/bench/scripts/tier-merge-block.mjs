// Ad-hoc: how long one tier merge of an indexed table blocks the main thread (event-loop delay, ELU), engine build given by path.
// node --expose-gc tier-merge-block.mjs <engine dist dir> [rows] [runs]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Field, Float64, Int32, Int64, Schema, tableFromArrays } from 'apache-arrow';

const [dist = '../../engine/dist', rowsArg = '1000000', runsArg = '3'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(resolve(dist, p)).href);
const { openStore } = await load('index.js');
const { compactOnce } = await load('write/compact.js');
const { openSnapshot } = await load('read/snapshot.js');
const ROWS = Number(rowsArg);
const indexed = new Map([['index', 'true']]);
const schema = new Schema([
  new Field('id', new Int32(), false),
  new Field('lat', new Float64(), false, indexed),
  new Field('lon', new Float64(), false, indexed),
  new Field('time', new Int64(), false),
  new Field('v', new Float64(), true),
]);
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const columns = () => ({
  id: Int32Array.from({ length: ROWS }, (_, i) => i),
  lat: Float64Array.from({ length: ROWS }, () => random() * 180 - 90),
  lon: Float64Array.from({ length: ROWS }, () => random() * 360 - 180),
  time: BigInt64Array.from({ length: ROWS }, (_, i) => BigInt(i) * 1000n),
  v: Float64Array.from({ length: ROWS }, () => random()),
});
for (let run = 0; run < Number(runsArg); run++) {
  const dir = mkdtempSync(join(tmpdir(), 'tier-block-'));
  try {
    // the rows as two deltas that stay unmerged (a leaf of a large partition holds them) ...
    let store = await openStore({ path: dir, workers: 1, partitionRows: 8 * ROWS, compactRun: 1000 });
    const t = store.table('obs');
    await t.create(schema);
    const all = columns();
    for (const [a, b] of [[0, ROWS / 2], [ROWS / 2, ROWS]]) {
      await t.insert(tableFromArrays(Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v.slice(a, b)]))));
    }
    await store.idle();
    await store.close();
    // ... then merged into a tier-1 run of leaves of ROWS / 16 rows (partitionRows ROWS / 4: one merge holds them all)
    store = await openStore({ path: dir, workers: 1, partitionRows: ROWS / 4, compactRun: 1000 });
    const ctx = store.ctx;
    const id = openSnapshot(ctx, 'obs');
    id.release();
    globalThis.gc?.();
    const h = monitorEventLoopDelay({ resolution: 1 });
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    h.enable();
    await compactOnce(ctx, 'obs', id.record.id);
    h.disable();
    const wall = performance.now() - t0;
    const elu = performance.eventLoopUtilization(elu0);
    const cpu = process.cpuUsage(cpu0);
    const after = openSnapshot(ctx, 'obs');
    after.release();
    console.log(
      `run ${run}: ${ROWS} rows -> ${after.parts.length} leaves (level ${after.parts[0]?.level}); wall ${wall.toFixed(0)} ms; ` +
        `main thread busy (ELU active) ${elu.active.toFixed(0)} ms; event-loop delay max ${(h.max / 1e6).toFixed(1)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms; ` +
        `process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`,
    );
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
