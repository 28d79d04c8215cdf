// The benchmark's server process: builds the seeded catalog and the app, measures the in-process side by
// side with DuckDB, then listens and reports {address, row} to the parent over IPC.
import { DuckDBInstance } from '@duckdb/node-api';
import { MemorySource, stacPlugin } from '@halocline/server';
import Fastify from 'fastify';
import { cpus } from 'node:os';
import { collectGarbage } from '../measure.js';
import { stats, type ResultRow } from '../report.js';
import { benchCatalog, benchQueries, type DatasetRow } from './catalog.js';

/** What the server process sends once it listens. */
export interface ServerReady {
  readonly address: string;
  readonly row: ResultRow;
}

const [datasets, nQueries, seed] = process.argv.slice(2).map(Number) as [number, number, number];
const log = (s: string) => process.stderr.write(`[bench:stac server] ${s}\n`);

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

const address = await app.listen({ host: '127.0.0.1', port: 0 });
duck.close();
process.send!({ address, row: inProcess } satisfies ServerReady);

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
