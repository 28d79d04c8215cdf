// W1C probe: where a read's time goes while a writer commits. Per-thread CPU (schedstat) and run-queue
// wait over an idle and a busy window of equal length, reads completed, commits, the scan tasks each
// read ran inline and pooled, the main isolate's GC pauses (docs/performance-history.md, W1C session 8).
//
// usage: node --expose-gc scripts/w1c-probe.mjs <engine package dir> <template store dir> [rows] [windowMs] [options]
//   --prof <prefix>   CPU profiles of the main thread: <prefix>.idle/.busy(.writer).cpuprofile
//   --perf <file>     perf samples of V8's platform threads in the busy window (of the main thread with --writer-only)
//   --threads         every thread's CPU per window
//   --inline-cpu      inline tasks timed by the main thread's CPU (schedstat; ~12 µs a task of its own) instead of wall time
//   --writer-only     no timed reads: CPU and context switches per commit of the writer alone (a read every 10 commits)
//   --deltas N        N uncompacted 10k-row deltas first, then one window of reads over them
//   WARM_MS=<ms>      untimed reads (and writing) before each window, default 2000
// <engine package dir> is packages/engine of any tree (its ../bench/dist/generate.js makes the rows).
// The template store (table `obs`, the bench's rows) is made on first use and copied for every run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';

const [enginePkg, template, rowsArg, windowArg] = process.argv.slice(2);
const profOut = process.argv.includes('--prof') ? process.argv[process.argv.indexOf('--prof') + 1] : null;
const rows = Number(rowsArg ?? 3_000_000);
const WINDOW = Number(windowArg ?? 3000);
const WARM = Number(process.env.WARM_MS ?? 2000);
const engine = await import(pathToFileURL(resolve(enginePkg, 'dist/index.js')).href);
// the generator of the same tree: one apache-arrow instance with the engine's
const gen = await import(pathToFileURL(resolve(enginePkg, '../bench/dist/generate.js')).href);

const startup = new Set(readdirSync('/proc/self/task'));
if (!existsSync(template)) {
  const s = await engine.openStore({ path: template });
  const t = s.table('obs');
  await t.create(gen.obsSchema);
  for (const b of gen.generateBatches({ rows, seed: 42 })) await t.insert(b);
  await s.idle();
  await s.close();
}
const dir = mkdtempSync(join(tmpdir(), 'w1c-probe-'));
execFileSync('cp', ['-a', template, join(dir, 'store')]);
// --deltas N: N 10k-row deltas committed first, never compacted; then only the idle window (reads over them)
const deltas = process.argv.includes('--deltas') ? Number(process.argv[process.argv.indexOf('--deltas') + 1]) : 0;
const store = await engine.openStore({ path: join(dir, 'store'), ...(deltas > 0 ? { compactRun: 100000 } : {}) });
const ctx = store.ctx;
const t = store.table('obs');

// scan tasks: per read, how many ran inline and their time on this thread, how many went to the pool
// the main isolate's GC pauses
let gcMs = 0, gcCount = 0;
new PerformanceObserver((l) => { for (const e of l.getEntries()) { gcMs += e.duration; gcCount++; } }).observe({ entryTypes: ['gc'] });
let inlineTasks = 0, inlineMs = 0, pooledTasks = 0, pooledBatches = 0;
const inlineRun = ctx.inline.run.bind(ctx.inline);
// --inline-cpu: the main thread's CPU time (schedstat, not wall time) of each inline task
const inlineCpu = process.argv.includes('--inline-cpu');
const threadCpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
ctx.inline.run = (task) => {
  const t0 = inlineCpu ? threadCpu() : performance.now();
  try { return inlineRun(task); } finally { inlineMs += (inlineCpu ? threadCpu() : performance.now()) - t0; inlineTasks++; }
};
const poolBatch = ctx.pool.runBatch.bind(ctx.pool);
ctx.pool.runBatch = (tasks) => { pooledTasks += tasks.length; pooledBatches++; return poolBatch(tasks); };

const batch = gen.generateTable({ rows: 10_000, seed: 43 });
for (const b of batch.batches) {
  const ids = b.getChild('id').data[0].values;
  for (let i = 0; i < ids.length; i++) ids[i] += BigInt(rows);
}
const read = () => t.select('depth > 5500').count();

function threads() {
  const out = new Map();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const [run, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      const st = readFileSync(`/proc/self/task/${tid}/status`, 'utf8');
      const vol = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(st)?.[1] ?? 0);
      const invol = Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(st)?.[1] ?? 0);
      out.set(tid, { cpu: run / 1e6, wait: wait / 1e6, nice: Number(f[16]), start: Number(f[19]), vol, invol });
    } catch { /* gone */ }
  }
  return out;
}

async function window(ms) {
  const before = threads();
  const times = [];
  inlineTasks = inlineMs = pooledTasks = pooledBatches = gcMs = gcCount = 0;
  const c0 = commits;
  const start = performance.now();
  while (performance.now() - start < ms) {
    const t0 = performance.now();
    await read();
    times.push(performance.now() - t0);
  }
  const wall = performance.now() - start;
  const after = threads();
  const per = new Map();
  for (const [tid, a] of after) {
    const b = before.get(tid) ?? { cpu: 0, wait: 0 };
    per.set(tid, { cpu: a.cpu - b.cpu, wait: a.wait - b.wait, nice: a.nice, start: a.start });
  }
  times.sort((x, y) => x - y);
  const n = times.length;
  return { wall, reads: n, median: times[n >> 1], p10: times[Math.floor(n * 0.1)], p90: times[Math.floor(n * 0.9)], per, commits: commits - c0, inlineTasks: inlineTasks / n, inlineMs: inlineMs / n, pooledTasks: pooledTasks / n, pooledBatches: pooledBatches / n, gcMs, gcCount };
}

let commits = 0;
let stop = false;
if (deltas > 0) {
  await read(); // the read column cached: each delta's comes into the cache as written
  for (let i = 0; i < deltas; i++) await t.insert(batch);
  for (const end = performance.now() + WARM; performance.now() < end; ) await read();
  fmtThreads(await window(WINDOW), 'reads over deltas');
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
if (process.argv.includes('--writer-only')) {
  // the writer alone (a read every 10 commits keeps the table's read column hot): main-thread CPU per commit, and its profile
  // profiling (--prof) wakes the main thread at every sample: context switches are counted without it
  const session = profOut ? new Session() : null;
  session?.connect();
  await session?.post('Profiler.enable');
  await session?.post('Profiler.setSamplingInterval', { interval: 100 });
  await read();
  const loop = async (ms) => { for (const end = performance.now() + ms; performance.now() < end; ) { await t.insert(batch); if (++commits % 10 === 0) await read(); } };
  await loop(WARM);
  const before = threads();
  const c0 = commits;
  // --perf <file>: on-CPU samples of the main thread (a CPU profile counts time spent descheduled too)
  const perfOut = process.argv.includes('--perf') ? process.argv[process.argv.indexOf('--perf') + 1] : null;
  const { spawn } = await import('node:child_process');
  const perf = perfOut ? spawn('perf', ['record', '-F', '2999', '-g', '-o', perfOut, '-t', String(process.pid), '--', 'sleep', String(WINDOW / 1000)], { stdio: 'ignore' }) : null;
  await session?.post('Profiler.start');
  console.log('=== writer window start');
  const start = performance.now();
  await loop(WINDOW);
  const wall = performance.now() - start;
  console.log('=== writer window end');
  if (session) writeFileSync(`${profOut}.writer.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile));
  const after = threads();
  if (perf) await new Promise((r) => perf.on('exit', r));
  const n = commits - c0;
  console.log(`writer alone: ${n} commits in ${wall.toFixed(0)} ms (${(n / wall * 1000).toFixed(1)}/s), CPU per commit (ms):`);
  const by = {};
  for (const [tid, a] of after) {
    const b = before.get(tid) ?? { cpu: 0 };
    const k = tid === String(process.pid) ? 'main' : a.nice === 19 ? 'part writer' : startup.has(tid) ? 'startup (V8 platform)' : 'other (scan workers, libuv)';
    by[k] = (by[k] ?? 0) + a.cpu - b.cpu;
  }
  for (const [k, v] of Object.entries(by).sort()) console.log(`  ${k.padEnd(28)} ${(v / n).toFixed(2)}`);
  const m0 = before.get(String(process.pid)), m1 = after.get(String(process.pid));
  if (process.argv.includes('--threads')) for (const [tid, a] of after) {
    const b = before.get(tid) ?? { cpu: 0, vol: 0, invol: 0 };
    console.log(`    ${tid} start ${a.start} nice ${a.nice}: cpu ${((a.cpu - b.cpu) / n).toFixed(2)} ms, ${((a.vol - b.vol) / n).toFixed(1)} + ${((a.invol - b.invol) / n).toFixed(1)} switches per commit`);
  }
  console.log(`  main thread context switches per commit: ${((m1.vol - m0.vol) / n).toFixed(1)} voluntary, ${((m1.invol - m0.invol) / n).toFixed(1)} involuntary`);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
for (const end = performance.now() + WARM; performance.now() < end; ) await read();
const session = profOut ? new Session() : null;
if (session) { session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 200 }); }
const profiled = async (name) => {
  console.log(`=== ${name} window start`);
  if (session) await session.post('Profiler.start');
  const w = await window(WINDOW);
  console.log(`=== ${name} window end`);
  if (session) writeFileSync(`${profOut}.${name}.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile));
  return w;
};
const idle = await profiled('idle');
const writer = (async () => { while (!stop) { await t.insert(batch); commits++; } })();
for (const end = performance.now() + WARM; performance.now() < end; ) await read();
// --perf <file>: perf samples of V8's platform threads (those running at startup, main excluded) in the busy window
const perfOut = process.argv.includes('--perf') ? process.argv[process.argv.indexOf('--perf') + 1] : null;
const { spawn } = await import('node:child_process');
const perf = perfOut ? spawn('perf', ['record', '-F', '999', '-g', '-o', perfOut, '-t', [...startup].filter((t) => t !== String(process.pid)).join(','), '--', 'sleep', String(WINDOW / 1000)], { stdio: 'ignore' }) : null;
const busy = await profiled('busy');
if (perf) await new Promise((r) => perf.on('exit', r));
stop = true;
await writer;
const parts = (await t.stats?.())?.num_rows;

// thread roles: main, startup (V8 platform etc.), the part writer (nice 19), the two busiest others in the idle window (scan workers), the rest
const scanTids = [...idle.per].filter(([tid, p]) => tid !== String(process.pid) && !startup.has(tid) && p.nice !== 19).sort((a, b) => b[1].cpu - a[1].cpu).slice(0, ctx.pool.concurrency).map(([tid]) => tid);
const role = (tid, p) => (tid === String(process.pid) ? 'main' : p.nice === 19 ? 'part writer' : scanTids.includes(tid) ? 'scan workers' : startup.has(tid) ? 'startup (V8 platform)' : 'other (libuv, lmdb)');
const sum = (w) => {
  const r = {};
  for (const [tid, p] of w.per) { const k = role(tid, p); r[k] ??= { cpu: 0, wait: 0 }; r[k].cpu += p.cpu; r[k].wait += p.wait; }
  return r;
};
function fmtThreads(w, name) {
  // main, the part writer (nice 19), platform (startup) threads, and the rest (scan workers, libuv)
  const r = {};
  for (const [tid, p] of w.per) { const k = tid === String(process.pid) ? 'main' : p.nice === 19 ? 'part writer' : startup.has(tid) ? 'startup (V8 platform)' : 'scan workers, libuv'; r[k] = (r[k] ?? 0) + p.cpu; }
  console.log(`${name}: ${w.reads} reads in ${w.wall.toFixed(0)} ms, median ${w.median.toFixed(2)} ms; per read: ${w.inlineTasks.toFixed(1)} inline tasks ${w.inlineMs.toFixed(2)} ms, ${w.pooledTasks.toFixed(1)} pooled tasks`);
  for (const [k, v] of Object.entries(r).sort()) console.log(`  ${k.padEnd(24)} cpu per read ${(v / w.reads).toFixed(2)} ms`);
}
const fmt = (w, name) => {
  const s = sum(w);
  console.log(`${name}: ${w.reads} reads in ${w.wall.toFixed(0)} ms, median ${w.median.toFixed(2)} (p10 ${w.p10.toFixed(2)}, p90 ${w.p90.toFixed(2)}) ms, ${w.commits} commits (${(w.commits / w.wall * 1000).toFixed(1)}/s); per read: ${w.inlineTasks.toFixed(1)} inline tasks ${w.inlineMs.toFixed(2)} ms, ${w.pooledTasks.toFixed(1)} pooled tasks in ${w.pooledBatches.toFixed(1)} batches; main isolate GC ${w.gcCount} pauses ${w.gcMs.toFixed(0)} ms`);
  for (const [k, v] of Object.entries(s).sort()) console.log(`  ${k.padEnd(24)} cpu ${(v.cpu / w.wall * 1000).toFixed(0).padStart(5)} ms/s  runqueue wait ${(v.wait / w.wall * 1000).toFixed(0).padStart(5)} ms/s   per read cpu ${(v.cpu / w.reads).toFixed(2)} ms`);
};
fmt(idle, 'idle');
fmt(busy, 'busy');
if (process.argv.includes('--threads')) {
  console.log('tid      start nice  role                    idle cpu ms/s  busy cpu ms/s');
  for (const [tid, p] of [...busy.per].sort((a, b) => a[1].start - b[1].start || Number(a[0]) - Number(b[0]))) {
    const i = idle.per.get(tid);
    console.log(`${tid.padEnd(8)} ${String(p.start).padStart(6)} ${String(p.nice).padStart(4)}  ${role(tid, p).padEnd(22)} ${((i?.cpu ?? 0) / idle.wall * 1000).toFixed(0).padStart(8)} ${(p.cpu / busy.wall * 1000).toFixed(0).padStart(14)}`);
  }
}
console.log(`ratio ${(busy.median / idle.median).toFixed(2)}, table rows at end ${parts}`);
await store.close();
rmSync(dir, { recursive: true, force: true });
