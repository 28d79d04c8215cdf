// The STAC search benchmark: POST /api/stac/search with bbox + datetime over a seeded catalog.
// A child process (server.ts) builds the catalog and the app, measures per query in process the plugin
// (Fastify inject, full JSON response) side by side with DuckDB answering the same page of ids in SQL,
// then listens; this process drives it over HTTP with autocannon, so the load generator does not share
// the server's event loop.
// usage: node dist/stac/main.js [--datasets 100000] [--connections 50] [--duration 10] [--queries 200] [--seed 42]
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatMs, formatTable, type ResultRow } from '../report.js';
import { benchQueries } from './catalog.js';
import type { ServerReady } from './server.js';

const { values } = parseArgs({
  options: {
    datasets: { type: 'string', default: '100000' }, connections: { type: 'string', default: '50' }, duration: { type: 'string', default: '10' },
    queries: { type: 'string', default: '200' }, seed: { type: 'string', default: '42' }, out: { type: 'string', default: 'results/stac-latest.json' },
  },
});
const [datasets, connections, duration, nQueries, seed] = (['datasets', 'connections', 'duration', 'queries', 'seed'] as const).map((k) => {
  const n = Number(values[k]);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${k} must be a positive integer, got ${values[k]}`);
  return n;
}) as [number, number, number, number, number];

const log = (s: string) => process.stderr.write(`[bench:stac] ${s}\n`);
const loadAtStart = loadavg();
log(`${cpus().length} × ${cpus()[0]?.model}, node ${process.version}, load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`);

const child = fork(new URL('./server.js', import.meta.url), [String(datasets), String(nQueries), String(seed)], { execArgv: ['--expose-gc'] });
const ready = await new Promise<ServerReady>((resolveReady, reject) => {
  child.once('message', (m) => resolveReady(m as ServerReady));
  child.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}`)));
});
const inProcess = ready.row;
const queries = benchQueries(nQueries, seed);
log(`autocannon: ${connections} connections, ${duration} s, against ${ready.address}`);
const result = await autocannon({
  url: ready.address, connections, duration,
  requests: queries.map((q) => ({ method: 'POST' as const, path: '/api/stac/search', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bbox: q.bbox, datetime: q.datetime, limit: 10 }) })),
});
child.kill();
const http: ResultRow = {
  workload: `POST /api/stac/search over HTTP, ${connections} connections`,
  measured: `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.average.toFixed(0)} req/s`,
  notes: [`${result.requests.total} requests in ${duration} s, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}; server in a child process`],
};
const rows = [inProcess, http];
console.log(`\nHalocline STAC search vs DuckDB — ${datasets} datasets, seed ${seed}`);
console.log(formatTable(rows));
console.log(`in-process median: plugin ${formatMs(inProcess.engine!.median)} ms, DuckDB ${formatMs(inProcess.duckdb!.median)} ms`);
console.log(`load average (1/5/15 min): ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadavg().map((l) => l.toFixed(2)).join(' ')} at end`);
const out = resolve(values.out!);
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify({ date: new Date().toISOString(), datasets, connections, duration, seed, loadAverage: { start: loadAtStart, end: loadavg() }, rows, autocannon: { latency: result.latency, requests: result.requests } }, null, 2) + '\n');
console.log(`results written to ${out}`);
