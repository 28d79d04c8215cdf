// The benchmark CLI: builds the engine store (in a temp dir) and DuckDB from the same generated rows,
// runs the workloads side by side, prints the report table and writes it as JSON.
import { version as duckdbVersion } from '@duckdb/node-api';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { USAGE, parseBenchArgs, type BenchArgs } from './args.js';
import { openDuckDB } from './baseline/duckdb.js';
import { loadEngine, type EngineStore } from './engine.js';
import { loadObs } from './load.js';
import { loadGeo } from './geo.js';
import { formatTable, ratio, type ResultRow } from './report.js';
import { afterClose, workloads, type BenchContext, type Workload } from './workloads/index.js';
import { OBS_INDEXED } from './workloads/w1-indexed.js';

const NEEDS_OBS = new Set(['W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'RSS', 'W1X', 'W7D', 'W1C']);
/** Workloads that also need the engine's `geo` table (obs + a WKB point column, lat/lon classes). */
const NEEDS_GEO = new Set(['W3', 'W4', 'W5']);

async function main(args: BenchArgs): Promise<void> {
  const wanted = (w: Workload) => !args.only || args.only.includes(w.id);
  const before = workloads.filter(wanted);
  const after = afterClose.filter(wanted);
  if (before.length + after.length === 0) throw new Error(`--only ${args.only?.join(',')} selects no workload\n${USAGE}`);
  const dir = await mkdtemp(join(tmpdir(), 'halocline-bench-'));
  const storePath = join(dir, 'store');
  const threads = availableParallelism();
  const duck = await openDuckDB(threads);
  const loaded = await loadEngine();
  // the reason the engine is unavailable goes to the log and the JSON once; report rows say "not available"
  const engineProblem = typeof loaded === 'string' ? loaded : undefined;
  const openEngine = engineProblem ? 'not available (reason in the log above)' : loaded;
  let store: EngineStore | string = typeof openEngine === 'string' ? openEngine : await openEngine(storePath, args.workers);
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
  log(`${machine.cpus} × ${machine.cpuModel}, ${machine.memGiB} GiB, node ${machine.node}, DuckDB ${duckdbVersion()} (${threads} threads), engine workers ${args.workers}`);
  log(`rows ${args.rows}, seed ${args.seed}, runs ${args.runs}, workloads ${[...before, ...after].map((w) => w.id).join(',')}, store ${storePath}`);
  const loadAtStart = loadavg();
  // the machine may be shared: other processes' CPU time shows up as noise in every number
  if (loadAtStart[0]! > 0.5) log(`warning: load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} before start; results will be noisy`);
  if (engineProblem) log(`engine unavailable, DuckDB side only: ${engineProblem}`);
  const results: ResultRow[] = [];
  let load;
  let indexedTable: string | undefined;
  try {
    if ([...before, ...after].some((w) => NEEDS_OBS.has(w.id))) {
      indexedTable = before.some((w) => w.id === 'W1X') ? OBS_INDEXED : undefined;
      load = await loadObs(args.rows, args.seed, duck, typeof store === 'string' ? undefined : store, indexedTable);
      log(`loaded: generate ${ms(load.generateMs)}, engine ${load.engineMs === undefined ? '—' : ms(load.engineMs)}, DuckDB ${ms(load.duckdbMs)}`);
      if (load.engineError) log(`engine load failed: ${load.engineError}`);
      if (typeof store !== 'string' && [...before, ...after].some((w) => NEEDS_GEO.has(w.id))) {
        log(`loaded geo (engine only): ${ms(await loadGeo(store, args.rows, args.seed))}`);
      }
      // reopen so background work started by the load (compaction) is finished before timing
      if (typeof store !== 'string' && typeof openEngine !== 'string') {
        await store.close();
        store = load.engineError ? `engine load failed: ${load.engineError}` : await openEngine(storePath, args.workers);
      }
    }
    const ctx: BenchContext = { ...args, duck, store, storePath, openEngine, indexedTable };
    for (const w of before) results.push(...(await runWorkload(w, ctx)));
    if (typeof store !== 'string') await store.close();
    store = 'closed';
    for (const w of after) results.push(...(await runWorkload(w, { ...ctx, store })));
  } finally {
    if (typeof store !== 'string') await store.close();
    duck.close();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(`\nHalocline engine vs DuckDB ${duckdbVersion()} — ${args.rows} rows, seed ${args.seed}, ${args.runs} runs after a warm-up`);
  console.log(formatTable(results));
  console.log(`load average (1/5/15 min): ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadavg().map((l) => l.toFixed(2)).join(' ')} at end`);
  const out = resolve(args.out);
  await mkdir(dirname(out), { recursive: true });
  const json = {
    date: new Date().toISOString(),
    machine: { ...machine, platform: `${process.platform}-${process.arch}` },
    rows: args.rows,
    seed: args.seed,
    runs: args.runs,
    engineWorkers: args.workers,
    engineUnavailable: engineProblem,
    loadAverage: { start: loadAtStart, end: loadavg() },
    duckdb: { version: duckdbVersion(), threads },
    load,
    results: results.map((r) => ({ ...r, ratio: ratio(r) })),
  };
  await writeFile(out, JSON.stringify(json, null, 2) + '\n');
  console.log(`\nresults written to ${out}`);
}

async function runWorkload(w: Workload, ctx: BenchContext): Promise<ResultRow[]> {
  // background work an earlier workload left (compaction, garbage collection of dropped tables) is
  // its cost, not this one's: wait for it before timing
  if (typeof ctx.store !== 'string') {
    const waitStart = performance.now();
    await ctx.store.idle();
    const waited = performance.now() - waitStart;
    if (waited >= 1) log(`waited ${ms(waited)} for the engine's background work before ${w.id}`);
  }
  log(`${w.id} ${w.title} ...`);
  const start = performance.now();
  const rows = await w.run(ctx);
  log(`${w.id} done in ${ms(performance.now() - start)}`);
  return rows;
}

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

function ms(t: number): string {
  return t >= 10_000 ? `${(t / 1000).toFixed(1)} s` : `${t.toFixed(0)} ms`;
}

try {
  await main(parseBenchArgs(process.argv.slice(2)));
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
}
