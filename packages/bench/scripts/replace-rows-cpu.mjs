// Ad-hoc: row-form (or batch) replaces of 1% bands on a copy of a stored obs; wall, main-thread and other threads' CPU per replace,
// and the main thread's run-queue wait (runnable, but another thread had its core).
// node --expose-gc replace-rows-cpu.mjs <store copy> [obs|obs_idx] [runs] [rows|noop|iter|batchins|batches]; NOGC=1 skips the gc() before each, KEEP=1 keeps each transaction alive,
// THREADS=1 prints each thread's CPU per replace (main; v8: V8's platform threads, started before the store; open: the store's threads, scan workers and part writer; late: any started after, libuv's), SPIN=<ms> spins two threads that long between replaces (as DuckDB's UPDATE does in the bench) instead of waiting for the store to be idle,
// ENGINE=<path to an engine build's dist/index.js> measures that build instead of the workspace's, COMPACT_RUN=<n> opens the store with that compactRun (e.g. 100000: no compaction),
// PHASES=1 prints each transaction's commit phases from the engine's `halocline:commit` diagnostics channel (files durable, then the version)
const { openStore, COMMIT_CHANNEL } = await import(process.env.ENGINE || '@halocline/engine');
if (process.env.PHASES) {
  const { subscribe } = await import('node:diagnostics_channel');
  subscribe(COMMIT_CHANNEL ?? 'halocline:commit', (e) => {
    if (e.kind === 'transaction') console.log(`  commit: ${e.rows} rows in ${e.files} files, ${e.deleted} deleted; files durable after ${(e.written - e.started).toFixed(1)} ms, version after ${(e.committed - e.written).toFixed(1)} ms more`);
  });
}
import { readFileSync, readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
const threads = () => { const m = new Map(); for (const t of readdirSync('/proc/self/task')) { try { const st = readFileSync(`/proc/self/task/${t}/stat`, 'utf8'); const name = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')')); const ss = readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' '); m.set(t + ':' + name, Number(ss[0]) / 1e6); } catch {} } return m; };
const [dir, table = 'obs', runsArg = '8', mode = 'rows'] = process.argv.slice(2);
const before = new Set(readdirSync('/proc/self/task'));
const store = await openStore({ path: dir, workers: 2, ...(process.env.COMPACT_RUN ? { compactRun: Number(process.env.COMPACT_RUN) } : {}) });
await store.table(table).select('depth < 0').count();
const afterOpen = new Set(readdirSync('/proc/self/task'));
const kind = (tid) => tid === String(process.pid) ? 'main' : before.has(tid) ? 'v8' : afterOpen.has(tid) ? 'open' : 'late';
const t = store.table(table);
const tcpu = () => { const s = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' '); return Number(s[0]) / 1e6; };
const twait = () => { const s = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' '); return Number(s[1]) / 1e6; };
import { RecordBatch, Float64, Struct, makeData } from 'apache-arrow';
function plusOne(b) {
  const children = b.schema.fields.map((f, i) => { const child = b.data.children[i]; if (f.name !== 'temp') return child; const from = child.values; const values = new Float64Array(b.numRows); for (let i = 0; i < values.length; i++) values[i] = from[i] + 1; return makeData({ type: new Float64(), length: b.numRows, nullCount: 0, data: values }); });
  return new RecordBatch(b.schema, makeData({ type: new Struct(b.schema.fields), length: b.numRows, nullCount: 0, children }));
}
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const BAND = 'depth >= $a and depth < $b';
const out = [];
for (let run = -1; run < Number(runsArg); run++) {
  const vars = { a: 3000 + 60 * (run + 1), b: 3000 + 60 * (run + 2) };
  if (process.env.SPIN) { await Promise.all([0, 1].map(() => new Promise((res) => { const w = new Worker(`const t = Date.now() + ${Number(process.env.SPIN)}; while (Date.now() < t) {}`, { eval: true }); w.on('exit', res); }))); } else await store.idle();
  if (!process.env.NOGC) globalThis.gc?.();
  const th0 = threads(); const c0 = tcpu(), w0 = twait(), t0 = performance.now();
  const n = await t.transaction(async (tx) => {
    let n = 0;
    if (process.env.KEEP) (globalThis.kept ??= []).push(tx);
    if (mode === 'rows') {
      const rep = tx.replace(BAND, { vars }); const it = rep[Symbol.asyncIterator](); if (process.env.KEEP) globalThis.kept.push(it);
      for await (const old of { [Symbol.asyncIterator]: () => it }) { await tx.insert({ ...old, temp: old.temp + 1 }); n++; }
    } else if (mode === 'noop') {
      const DONE = Promise.resolve(); let s = 0; const sink = (r) => { s += r.temp; return DONE; };
      for await (const old of tx.replace(BAND, { vars })) { await sink({ ...old, temp: old.temp + 1 }); n++; }
    } else if (mode === 'iter') {
      for await (const old of tx.replace(BAND, { vars })) { n++; }
    } else if (mode === 'batchins') {
      for await (const b of tx.replace(BAND, { vars }).batches()) { await tx.insert(plusOne(b)); n += b.numRows; }
    } else if (mode === 'batches') {
      for await (const b of tx.replace(BAND, { vars }).batches()) { n += b.numRows; }
    }
    globalThis.loopEnd = performance.now(); globalThis.loopCpu = tcpu(); globalThis.loopWait = twait() - w0;
    return n;
  });
  const wall = performance.now() - t0, cpu = tcpu() - c0;
  const th1 = threads(); const per = []; for (const [k, v] of th1) { const d = v - (th0.get(k) ?? 0); if (d > 0.5) per.push(`${kind(k.split(':')[0])}=${d.toFixed(1)}`); }
  if (process.env.THREADS) console.log('  threads(ms):', per.join(' '));
  let other = 0; for (const [k, v] of th1) if (!k.startsWith(process.pid + ':')) other += v - (th0.get(k) ?? 0);
  globalThis.otherCpu = other;
  if (run >= 0) out.push([wall, cpu, globalThis.loopCpu - c0, globalThis.otherCpu]);
  console.log(`run ${run} n=${n} wall ${wall.toFixed(1)} ms mainCPU ${cpu.toFixed(1)} ms; loop ${(globalThis.loopEnd - t0).toFixed(1)} ms (cpu ${(globalThis.loopCpu - c0).toFixed(1)}, runq ${globalThis.loopWait.toFixed(1)}); runq ${(twait() - w0).toFixed(1)}`);
}
const mn = (a) => Math.min(...a);
console.log(`min wall ${mn(out.map((o) => o[0])).toFixed(1)} mainCPU ${mn(out.map((o) => o[1])).toFixed(1)} loopCPU ${mn(out.map((o) => o[2])).toFixed(1)} other ${mn(out.map((o) => o[3])).toFixed(0)}`);
console.log(`median otherThreadsCPU ${med(out.map((o) => o[3])).toFixed(0)}`);
console.log(`median loopCPU ${med(out.map((o) => o[2])).toFixed(1)}`);
console.log(`median wall ${med(out.map((o) => o[0])).toFixed(1)} mainCPU ${med(out.map((o) => o[1])).toFixed(1)}`);
await store.close();
