// The STAC search benchmark: POST /api/stac/search with bbox + datetime over a seeded catalog.
// In process, per query: the plugin (Fastify inject, full JSON response) side by side with DuckDB answering
// the same page of ids in SQL; over HTTP: autocannon at N connections against a listening server.
// usage: node dist/stac/main.js [--datasets 100000] [--connections 50] [--duration 10] [--queries 200] [--seed 42]
import { DuckDBInstance } from '@duckdb/node-api';
import { MemorySource, stacPlugin } from '@halocline/server';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { collectGarbage } from '../measure.js';
import { formatMs, formatTable, stats, type ResultRow } from '../report.js';
import { benchCatalog, benchQueries, type DatasetRow } from './catalog.js';

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

let t = performance.now();
const catalog = benchCatalog(datasets, 100, seed);
log(`generated ${datasets} datasets (${catalog.resources.length} resources) in ${(performance.now() - t).toFixed(0)} ms`);
t = performance.now();
const app = Fastify({ logger: false });
await app.register(stacPlugin, { source: new MemorySource(catalog.resources), baseUrl: 'http://bench.local' });
await app.ready();
log(`indexed in ${(performance.now() - t).toFixed(0)} ms`);
const duck = await openBaseline(catalog.rows);
const queries = benchQueries(nQueries, seed);

// in process: the same queries on both sides, answers compared
const ours: number[] = [];
const theirs: number[] = [];
const notes: string[] = [];
let matched = 0;
// one full GC before the loop: a GC per query would cost more than the queries on a 100k-dataset heap
collectGarbage();
for (const [i, q] of queries.entries()) {
  const body = { bbox: q.bbox, datetime: q.datetime, limit: 10 };
  let s = performance.now();
  const r = await app.inject({ method: 'POST', url: '/api/stac/search', payload: body });
  ours.push(performance.now() - s);
  s = performance.now();
  const ids = await duck.page(q.bbox, q.start, q.end);
  theirs.push(performance.now() - s);
  const page = JSON.parse(r.body) as { features: { id: string }[]; numberMatched: number };
  matched += page.numberMatched;
  const got = page.features.map((f) => f.id).join(',');
  if (got !== ids.join(',') && notes.length < 3) notes.push(`MISMATCH on query ${i}: plugin ${got}, DuckDB ${ids.join(',')}`);
}
const inProcess: ResultRow = {
  workload: `STAC search bbox+datetime, ${datasets} datasets (per query, in process)`,
  engine: stats(ours), duckdb: stats(theirs),
  notes: [`${nQueries} seeded queries; plugin = Fastify inject, full STAC JSON page of 10; DuckDB = same page of ids in SQL`, `mean matches per query ${(matched / nQueries).toFixed(0)}`, ...notes],
};

// over HTTP
const address = await app.listen({ host: '127.0.0.1', port: 0 });
log(`autocannon: ${connections} connections, ${duration} s, against ${address}`);
const result = await autocannon({
  url: address, connections, duration,
  requests: queries.map((q) => ({ method: 'POST' as const, path: '/api/stac/search', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bbox: q.bbox, datetime: q.datetime, limit: 10 }) })),
});
await app.close();
duck.close();
const http: ResultRow = {
  workload: `POST /api/stac/search over HTTP, ${connections} connections`,
  measured: `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.average.toFixed(0)} req/s`,
  notes: [`${result.requests.total} requests in ${duration} s, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`],
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

async function openBaseline(rows: readonly DatasetRow[]) {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(cpus().length) });
  const c = await instance.connect();
  await c.run('CREATE TABLE ds(id VARCHAR, created BIGINT, minx DOUBLE, miny DOUBLE, maxx DOUBLE, maxy DOUBLE, t0 BIGINT, t1 BIGINT)');
  const appender = await c.createAppender('ds');
  for (const r of rows) {
    appender.appendVarchar(r.id);
    appender.appendBigInt(BigInt(r.created));
    for (const v of r.box) appender.appendDouble(v);
    appender.appendBigInt(BigInt(r.start));
    appender.appendBigInt(BigInt(r.end));
    appender.endRow();
  }
  appender.flushSync();
  appender.closeSync();
  const stmt = await c.prepare('SELECT id FROM ds WHERE minx <= $1 AND maxx >= $2 AND miny <= $3 AND maxy >= $4 AND t0 <= $5 AND t1 >= $6 ORDER BY created, id LIMIT 10');
  return {
    async page(b: readonly number[], start: number, end: number): Promise<string[]> {
      stmt.bindDouble(1, b[2]!);
      stmt.bindDouble(2, b[0]!);
      stmt.bindDouble(3, b[3]!);
      stmt.bindDouble(4, b[1]!);
      stmt.bindBigInt(5, BigInt(end));
      stmt.bindBigInt(6, BigInt(start));
      const reader = await stmt.runAndReadAll();
      return reader.getRows().map((r) => String(r[0]));
    },
    close() {
      c.closeSync();
      instance.closeSync();
    },
  };
}
