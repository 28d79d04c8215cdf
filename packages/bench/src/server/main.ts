// Server benchmarks: catalog list under 50 connections (R-tree vs exact scan) and raw file transfer
// vs a plain file copy. node dist/server/main.js [--datasets 10000] [--connections 50] [--seconds 10]
// [--mb 256] [--runs 3] [--seed 42] [--out results/server-latest.json]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '@halocline/server';
import { formatMs } from '../report.js';
import { listBodies, loadCatalogList } from './catalog-list.js';
import { makeSource, measureTransfers } from './raw-transfer.js';
import { seedCatalog } from './seed-catalog.js';

const { values } = parseArgs({
  options: {
    datasets: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    mb: { type: 'string', default: '256' },
    runs: { type: 'string', default: '3' },
    seed: { type: 'string', default: '42' },
    out: { type: 'string', default: 'results/server-latest.json' },
  },
});
const n = (k: keyof typeof values) => Number(values[k]);

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'halocline-bench-server-'));
  const loadStart = loadavg();
  console.log(`${cpus().length} × ${cpus()[0]?.model}, node ${process.version}, load ${loadStart.map((l) => l.toFixed(2)).join(' ')}`);
  const server = await startServer({ port: 0, host: '127.0.0.1', config: { dataDir: join(dir, 'data'), logger: false } });
  try {
    const key = server.firstAdminKey!;
    let t = performance.now();
    await seedCatalog(server.app, n('datasets'), n('seed'));
    console.log(`seeded ${n('datasets')} datasets + ${n('datasets')} geometric observables in ${formatMs(performance.now() - t)} ms`);
    const list = [];
    for (const indexed of [true, false]) {
      list.push(await loadCatalogList(server, key, {
        label: indexed ? '#AND kind + #ST_INTERSECTS (R-tree)' : 'same filter inside #OR (no index: exact test of all)',
        bodies: listBodies(n('seed'), 64, indexed),
        connections: n('connections'),
        seconds: n('seconds'),
      }));
    }
    console.log(`\nPOST /catalog/list, ${n('connections')} connections, ${n('seconds')} s each (autocannon)`);
    console.log('| filter | p50 ms | p99 ms | req/s | mean results | non-2xx |\n|---|---|---|---|---|---|');
    for (const r of list) console.log(`| ${r.label} | ${r.p50} | ${r.p99} | ${r.requestsPerSecond.toFixed(0)} | ${r.meanResults.toFixed(1)} | ${r.non2xx} |`);
    console.log(`R-tree speed-up (req/s): ${(list[0]!.requestsPerSecond / list[1]!.requestsPerSecond).toFixed(1)}×`);

    t = performance.now();
    const source = await makeSource(dir, n('mb'), n('seed'));
    const transfers = await measureTransfers(server, key, dir, source, n('mb'), n('runs'));
    console.log(`\nraw file of ${n('mb')} MiB, ${n('runs')} runs after a warm-up (MB/s min / median / max, ratio = median / copy median)`);
    console.log('| path | min | median | max | ratio |\n|---|---|---|---|---|');
    const copy = transfers[0]!.mbPerSecond.median;
    for (const r of transfers) console.log(`| ${r.label} | ${r.mbPerSecond.min.toFixed(0)} | ${r.mbPerSecond.median.toFixed(0)} | ${r.mbPerSecond.max.toFixed(0)} | ${(r.mbPerSecond.median / copy).toFixed(2)}× |`);
    const loadEnd = loadavg();
    console.log(`\nload average (1/5/15 min): ${loadStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadEnd.map((l) => l.toFixed(2)).join(' ')} at end`);
    const out = resolve(values.out!);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify({ date: new Date().toISOString(), args: values, loadAverage: { start: loadStart, end: loadEnd }, catalogList: list, transfers }, null, 2)}\n`);
    console.log(`results written to ${out}`);
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
