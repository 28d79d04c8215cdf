// The HTTP benchmark: tabular v2 through @halocline/client against a real server (same process), side by
// side with the embedded engine on the same store: select at ~8.3% of N rows, insert of 1M rows in one
// transaction, per-request overhead of a tiny select.
// Run: npm run build && npm run bench:http --workspace @halocline/bench -- [--rows N] [--runs N]
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@halocline/client';
import type { TableApi } from '@halocline/engine';
import { startServer } from '@halocline/server';
import type { Table } from 'apache-arrow';
import { generateBatches, generateTable, obsSchema } from './generate.js';
import { measure, measureMany } from './measure.js';
import { formatMs, formatRate, type Stats } from './report.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '10000000' }, runs: { type: 'string', default: '5' }, seed: { type: 'string', default: '42' }, out: { type: 'string', default: 'results/http.json' } } });
const rows = Number(values.rows);
const runs = Number(values.runs);
const seed = Number(values.seed);
const FILTER = 'depth > 5500';

const manifest = (name: string) => ({
  kind: 'catalog.example.io/dataset', version: 'v1alpha3', metadata: { name },
  spec: { storage_controller: 'registry.example.io/storageController/storage-tabular', storage_class: 'registry.example.io/storageClass/tabular', maintainer: { contact: 'Bench <b@example.org>', organisation: 'Halocline' } },
});

interface Row { readonly workload: string; readonly http: Stats; readonly embedded: Stats; readonly measured: string; readonly target?: string; readonly pass?: boolean; readonly note?: string }

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'halocline-http-bench-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', workers: availableParallelism(), config: { logger: false, dataDir: dir } });
  const loadAtStart = loadavg();
  const out: Row[] = [];
  try {
    const key = (await server.app.halocline.access.createApiKey('bench', false)).key;
    const client = new Client({ baseUrl: server.url, apiKey: key });
    let datasets = 0;
    const dataset = async () => (await client.catalog.create(manifest(`bench-${++datasets}`))).metadata.uuid!;
    const obs = await dataset();
    const local = server.store.table(obs);
    await local.create(obsSchema);
    const t0 = performance.now();
    for (const b of generateBatches({ rows, seed, batchRows: 1 << 20 })) await local.insert(b);
    console.log(`loaded ${rows} rows in ${formatMs(performance.now() - t0)} ms`);
    out.push(await select(local, client.table(obs)));
    out.push(await insert(server.store.table.bind(server.store), client, dataset));
    out.push(await overhead(server.store.table.bind(server.store), client, dataset));
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(`\nHTTP (client → server, same process) vs embedded engine — ${rows} rows, ${runs} runs after a warm-up`);
  console.log('workload | HTTP min/median/max ms | embedded min/median/max ms | measured | target');
  for (const r of out) console.log(`${r.workload} | ${fmt(r.http)} | ${fmt(r.embedded)} | ${r.measured} | ${r.target ?? '—'}${r.pass === undefined ? '' : r.pass ? ' PASS' : ' MISS'}${r.note ? `\n  ${r.note}` : ''}`);
  console.log(`load average (1/5/15 min): ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadavg().map((l) => l.toFixed(2)).join(' ')} at end`);
  const file = resolve(values.out!);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ date: new Date().toISOString(), rows, runs, loadAverage: { start: loadAtStart, end: loadavg() }, results: out }, null, 2)}\n`);
}

async function countBatches(t: TableApi): Promise<number> {
  let n = 0;
  for await (const b of t.select(FILTER).batches()) n += b.numRows;
  return n;
}

async function select(local: TableApi, remote: TableApi): Promise<Row> {
  let a = 0;
  let b = 0;
  const embedded = await measure(() => countBatches(local), { runs }, (n) => (a = n));
  const http = await measure(() => countBatches(remote), { runs }, (n) => (b = n));
  const share = embedded.median / http.median;
  return {
    workload: `select * ${FILTER} (${a} rows) → Arrow batches`, http, embedded,
    measured: `${(share * 100).toFixed(0)}% of embedded throughput`, target: '≥ 50%', pass: share >= 0.5 && a === b,
    ...(a !== b ? { note: `MISMATCH: embedded ${a} rows, HTTP ${b}` } : {}),
  };
}

async function insert(table: (name: string) => TableApi, client: Client, dataset: () => Promise<string>): Promise<Row> {
  const n = Math.min(1_000_000, rows);
  const data: Table = generateTable({ rows: n, seed: seed + 1 });
  const names: string[] = [];
  const setup = async () => {
    const id = await dataset();
    await table(id).create(obsSchema);
    names.push(id);
  };
  const last = () => names[names.length - 1]!;
  const embedded = await measure(() => table(last()).transaction((tx) => tx.insert(data)), { runs, setup });
  const http = await measure(() => client.table(last()).transaction((tx) => tx.insert(data)), { runs, setup });
  const rate = (n * 1000) / http.median;
  return { workload: `insert ${n} rows in one transaction (begin, insert Arrow IPC, commit)`, http, embedded, measured: `${formatRate(rate)} (embedded ${formatRate((n * 1000) / embedded.median)})` };
}

async function overhead(table: (name: string) => TableApi, client: Client, dataset: () => Promise<string>): Promise<Row> {
  const id = await dataset();
  await table(id).create(obsSchema);
  await table(id).insert(generateTable({ rows: 1, seed }));
  const embedded = await measureMany(() => table(id).select('depth > 100').all(), 2000);
  const http = await measureMany(() => client.table(id).select('depth > 100').all(), 2000);
  return { workload: 'tiny select (1-row table), per request', http, embedded, measured: `${formatMs(http.median - embedded.median)} ms added by HTTP` };
}

const fmt = (s: Stats) => `${formatMs(s.min)} / ${formatMs(s.median)} / ${formatMs(s.max)}`;

await main();
