// The HTTP benchmark: tabular v2 through @halocline/client against a real server in a child process,
// side by side with the embedded engine (a store in this process holding the same seeded rows): select
// at ~8.3% of N rows, insert of 1M rows in one transaction, per-request overhead of a tiny select.
// Run: npm run build && npm run bench:http --workspace @halocline/bench -- [--rows N] [--runs N]
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@halocline/client';
import type { TableApi } from '@halocline/engine';
import { type ChildProcess, fork } from 'node:child_process';
import { startProfile } from './profile.js';
import { openStore } from '@halocline/engine';
import type { Table } from 'apache-arrow';
import { generateBatches, generateTable, obsSchema } from './generate.js';
import { measure, measureMany, measurePair } from './measure.js';
import { formatMs, formatRate, type Stats } from './report.js';
import { tabularManifest as manifest } from './http-manifest.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '10000000' }, runs: { type: 'string', default: '5' }, seed: { type: 'string', default: '42' }, out: { type: 'string', default: 'results/http.json' }, only: { type: 'string' }, profile: { type: 'string' } } });
const rows = Number(values.rows);
const runs = Number(values.runs);
const seed = Number(values.seed);
const FILTER = 'depth > 5500';
/** `--only select|insert|overhead` runs one workload; `--profile dir` writes CPU profiles of the HTTP side of each workload (client and server). */
const only = values.only;
const profileDir = values.profile;

interface Row { readonly workload: string; readonly http: Stats; readonly embedded: Stats; readonly measured: string; readonly target?: string; readonly pass?: boolean; readonly note?: string }

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'halocline-http-bench-'));
  const child = fork(new URL('./http-server-child.js', import.meta.url), [join(dir, 'server'), String(rows), String(seed)], { execArgv: [] });
  const ready = new Promise<{ url: string; key: string; obs: string }>((res, rej) => {
    child.once('message', (m) => res(m as never));
    child.once('exit', (code) => rej(new Error(`server process exited (${code})`)));
  });
  const store = await openStore({ path: join(dir, 'embedded'), workers: availableParallelism() });
  const loadAtStart = loadavg();
  const out: Row[] = [];
  try {
    const local = store.table('obs');
    await local.create(obsSchema);
    const t0 = performance.now();
    for (const b of generateBatches({ rows, seed, batchRows: 1 << 20 })) await local.insert(b);
    const { url, key, obs } = await ready;
    console.log(`loaded ${rows} rows (embedded ${formatMs(performance.now() - t0)} ms; server process loaded its copy in parallel)`);
    // both stores compact after the bulk load: time nothing before that background work is done
    const t1 = performance.now();
    await Promise.all([store.idle(), ask(child, { idle: true })]);
    console.log(`background work (compaction) done after ${formatMs(performance.now() - t1)} ms more`);
    const client = new Client({ baseUrl: url, apiKey: key });
    let datasets = 0;
    const dataset = async () => (await client.catalog.create(manifest(`bench-${++datasets}`))).metadata.uuid!;
    if (!only || only === 'select') out.push(await select(local, client.table(obs), child));
    if (!only || only === 'insert') out.push(await insert((name) => store.table(name), client, dataset, child));
    if (!only || only === 'overhead') out.push(await overhead((name) => store.table(name), client, dataset, child));
  } finally {
    child.send('close');
    await new Promise((r) => child.once('exit', r));
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(`\nHTTP (client → server in a child process) vs embedded engine — ${rows} rows, ${runs} runs after a warm-up`);
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

async function select(local: TableApi, remote: TableApi, child: ChildProcess): Promise<Row> {
  let a = 0;
  let b = 0;
  // alternating runs: load from other work on the machine falls on both sides alike
  const [embedded, http] = await profiled('select', child, () => measurePair(() => countBatches(local), () => countBatches(remote), { runs }, (which, n) => (which === 0 ? (a = n) : (b = n))));
  const share = embedded.median / http.median;
  return {
    workload: `select * ${FILTER} (${a} rows) → Arrow batches`, http, embedded,
    measured: `${(share * 100).toFixed(0)}% of embedded throughput`, target: '≥ 50%', pass: share >= 0.5 && a === b,
    ...(a !== b ? { note: `MISMATCH: embedded ${a} rows, HTTP ${b}` } : {}),
  };
}

async function insert(table: (name: string) => TableApi, client: Client, dataset: () => Promise<string>, child: ChildProcess): Promise<Row> {
  const n = Math.min(1_000_000, rows);
  const data: Table = generateTable({ rows: n, seed: seed + 1 });
  const names: string[] = [];
  const last = () => names[names.length - 1]!;
  const embedded = await measure(() => table(last()).transaction((tx) => tx.insert(data)), { runs, setup: async () => {
    names.push(`insert-${names.length}`);
    await table(last()).create(obsSchema);
  } });
  const http = await profiled('insert', child, () => measure(() => client.table(last()).transaction((tx) => tx.insert(data)), { runs, setup: async () => {
    names.push(await dataset());
    await client.table(last()).create(obsSchema);
  } }));
  const rate = (n * 1000) / http.median;
  return { workload: `insert ${n} rows in one transaction (begin, insert Arrow IPC, commit)`, http, embedded, measured: `${formatRate(rate)} (embedded ${formatRate((n * 1000) / embedded.median)})` };
}

async function overhead(table: (name: string) => TableApi, client: Client, dataset: () => Promise<string>, child: ChildProcess): Promise<Row> {
  const one = generateTable({ rows: 1, seed });
  const remote = client.table(await dataset());
  await remote.create(obsSchema);
  await remote.insert(one);
  const local = table('tiny');
  await local.create(obsSchema);
  await local.insert(one);
  const embedded = await measureMany(() => local.select('depth > 100').all(), 2000);
  const http = await profiled('overhead', child, () => measureMany(() => remote.select('depth > 100').all(), 2000));
  return { workload: 'tiny select (1-row table), per request', http, embedded, measured: `${formatMs(http.median - embedded.median)} ms added by HTTP` };
}

/** `fn` with CPU profiles of both processes written to `--profile` as <side>-<name>.cpuprofile (when given). */
async function profiled<T>(name: string, child: ChildProcess, fn: () => Promise<T>): Promise<T> {
  if (!profileDir) return fn();
  const profiler = await startProfile();
  await ask(child, { profile: 'start' });
  const result = await fn();
  await profiler.stop(join(profileDir, `client-${name}.cpuprofile`));
  await ask(child, { profile: join(profileDir, `server-${name}.cpuprofile`) });
  return result;
}

/** Sends a message to the server process and waits for its answer. */
function ask(child: ChildProcess, message: unknown): Promise<unknown> {
  return new Promise((res) => {
    child.once('message', res);
    child.send(message as never);
  });
}

const fmt = (s: Stats) => `${formatMs(s.min)} / ${formatMs(s.median)} / ${formatMs(s.max)}`;

await main();
