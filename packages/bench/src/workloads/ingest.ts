// INGEST: 1M seeded rows ingested from a stored Parquet file and from the same rows as CSV into an
// existing (emptied) table, as rows/s against DuckDB's INSERT INTO … SELECT * FROM read_parquet /
// read_csv into an existing table, engine and DuckDB runs alternating (compare()). Both files are
// written by DuckDB from the generated rows.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OBS_COLUMNS } from '../baseline/duckdb.js';
import type { EngineStore } from '../engine.js';
import { generateTable, obsSchema } from '../generate.js';
import { formatRate, type ResultRow, type Stats } from '../report.js';
import { compare, type BenchContext, type Workload } from './workload.js';

/** Minimum engine rate as a fraction of DuckDB's. */
const TARGETS = { parquet: 0.5, csv: 0.3 } as const;

export const ingest: Workload = {
  id: 'INGEST',
  title: 'ingest 1M rows from Parquet and CSV',
  async run(ctx) {
    const n = Math.min(1_000_000, ctx.rows);
    const dir = await mkdtemp(join(tmpdir(), 'halocline-ingest-'));
    try {
      const files = await writeFiles(ctx, n, dir);
      const out: ResultRow[] = [];
      for (const format of ['parquet', 'csv'] as const) out.push(await ingestRow(ctx, n, format, files[format]));
      return out;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

// the generated rows loaded into DuckDB and copied out as a Parquet file and a CSV file
async function writeFiles(ctx: BenchContext, n: number, dir: string): Promise<Record<'parquet' | 'csv', string>> {
  await ctx.duck.createObsTable('ingest_src');
  await ctx.duck.append('ingest_src', generateTable({ rows: n, seed: ctx.seed }).batches);
  const parquet = join(dir, 'obs.parquet');
  const csv = join(dir, 'obs.csv');
  await ctx.duck.connection.run(`COPY ingest_src TO '${parquet}' (FORMAT parquet)`);
  const iso = `strftime(time, '%Y-%m-%dT%H:%M:%S.%gZ') AS time`;
  await ctx.duck.connection.run(
    `COPY (SELECT id, ${iso}, lat, lon, depth, temp, salinity, platform FROM ingest_src) TO '${csv}' (FORMAT csv, HEADER)`,
  );
  await ctx.duck.connection.run('DROP TABLE ingest_src');
  return { parquet, csv };
}

async function ingestRow(ctx: BenchContext, n: number, format: 'parquet' | 'csv', path: string): Promise<ResultRow> {
  const name = `ingest_${format}`;
  let fileId = '';
  if (typeof ctx.store !== 'string') {
    const t = ctx.store.table(name);
    await t.create(obsSchema);
    fileId = await t.raw.upload(`obs.${format}`, await readFile(path));
  }
  const reader = format === 'parquet' ? `read_parquet('${path}')` : `read_csv('${path}', header = true)`;
  let rows = 0;
  const c = await compare(
    ctx,
    (store: EngineStore) => async () => {
      rows = (await store.table(name).raw.ingest(fileId, { opt: 'append' })).rows;
      return rows;
    },
    async () => {
      const r = await ctx.duck.connection.runAndReadAll(`INSERT INTO ${name} SELECT * FROM ${reader}`);
      return Number(r.getRows()[0]?.[0] ?? n);
    },
    {
      engineSetup: () => (ctx.store as EngineStore).table(name).truncate(),
      duckSetup: async () => void (await ctx.duck.connection.run(`CREATE OR REPLACE TABLE ${name}(${OBS_COLUMNS})`)),
    },
  );
  if (typeof ctx.store !== 'string') await ctx.store.table(name).drop().catch(() => undefined);
  await ctx.duck.connection.run(`DROP TABLE IF EXISTS ${name}`);
  const engineRate = rate(n, c.engine);
  const duckRate = rate(n, c.duckdb)!;
  const target = TARGETS[format];
  const notes = c.engineError ? [`engine error: ${c.engineError}`] : [];
  if (!c.engineError && rows !== n) notes.push(`MISMATCH: engine ingested ${rows} rows, expected ${n}`);
  notes.push(`DuckDB ${formatRate(duckRate)} (INSERT INTO … SELECT * FROM ${format === 'parquet' ? 'read_parquet' : 'read_csv'})`);
  return {
    workload: `INGEST ${n} rows from ${format === 'parquet' ? 'Parquet' : 'CSV'}`,
    engine: c.engine,
    duckdb: c.duckdb,
    measured: engineRate === undefined ? undefined : `${formatRate(engineRate)} (${(engineRate / duckRate).toFixed(2)}× DuckDB)`,
    target: `≥ ${target}× DuckDB`,
    pass: engineRate === undefined ? undefined : engineRate >= target * duckRate,
    notes,
  };
}

/** Rows per second at the median run time. */
function rate(rows: number, s: Stats | undefined): number | undefined {
  return s ? rows / (s.median / 1000) : undefined;
}
