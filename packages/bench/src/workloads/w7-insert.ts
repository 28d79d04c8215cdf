// W7: insert 1M rows into a fresh table as one committed insert, reported as rows/s. Two variants:
// an Arrow Table (DuckDB: appender with data chunks) and the same rows as row objects (DuckDB: appender
// value by value).
import type { Table } from 'apache-arrow';
import { generateTable, obsSchema } from '../generate.js';
import type { EngineStore, EngineTable } from '../engine.js';
import { formatRate, type ResultRow, type Stats } from '../report.js';
import { compare, type BenchContext, type Workload } from './workload.js';

const TARGET_ROWS_PER_S = 3.6e6;

export const w7: Workload = {
  id: 'W7',
  title: 'insert 1M rows',
  async run(ctx) {
    const n = Math.min(1_000_000, ctx.rows);
    const data = generateTable({ rows: n, seed: ctx.seed });
    const arrow = await insertRow(ctx, `W7 insert ${n} rows (Arrow Table)`, n, {
      engine: (t) => t.insert(data),
      duck: (name) => ctx.duck.append(name, data.batches),
      duckPath: 'appender, 2048-row data chunks',
      minRate: TARGET_ROWS_PER_S,
    });
    const objects = toRowObjects(data);
    const rows = await insertRow(ctx, `W7 insert ${n} rows (row objects)`, n, {
      engine: (t) => t.insert(objects),
      duck: (name) => ctx.duck.appendRows(name, objects),
      duckPath: 'appender, value by value',
    });
    return [arrow, rows];
  },
};

let tables = 0;

/** How one variant inserts on each side. */
interface Inserts {
  readonly engine: (t: EngineTable) => Promise<void>;
  readonly duck: (table: string) => Promise<number>;
  readonly duckPath: string;
  readonly minRate?: number;
}

async function insertRow(ctx: BenchContext, label: string, rows: number, how: Inserts): Promise<ResultRow> {
  const engineTables: string[] = [];
  const duckTables: string[] = [];
  const c = await compare(
    ctx,
    (store: EngineStore) => () => how.engine(store.table(engineTables[engineTables.length - 1]!)),
    async () => {
      await how.duck(duckTables[duckTables.length - 1]!);
    },
    {
      engineSetup: async () => {
        const name = `w7_${tables++}`;
        engineTables.push(name);
        await (ctx.store as EngineStore).table(name).create(obsSchema);
      },
      duckSetup: async () => {
        const name = `w7_${tables++}`;
        duckTables.push(name);
        await ctx.duck.createObsTable(name);
      },
    },
  );
  await cleanUp(ctx, engineTables, duckTables);
  const engineRate = rate(rows, c.engine);
  const notes = c.engineError ? [`engine error: ${c.engineError}`] : [];
  notes.push(`DuckDB ${formatRate(rate(rows, c.duckdb)!)} (${how.duckPath})`);
  return {
    workload: label,
    engine: c.engine,
    duckdb: c.duckdb,
    measured: engineRate === undefined ? undefined : formatRate(engineRate),
    target: how.minRate === undefined ? undefined : `≥ ${formatRate(how.minRate)}`,
    pass: how.minRate === undefined || engineRate === undefined ? undefined : engineRate >= how.minRate,
    notes,
  };
}

/** Rows per second at the median run time. */
function rate(rows: number, s: Stats | undefined): number | undefined {
  return s ? rows / (s.median / 1000) : undefined;
}

async function cleanUp(ctx: BenchContext, engineTables: string[], duckTables: string[]): Promise<void> {
  if (typeof ctx.store !== 'string') {
    for (const name of engineTables) await ctx.store.table(name).drop().catch(() => undefined);
  }
  for (const name of duckTables) await ctx.duck.connection.run(`DROP TABLE IF EXISTS ${name}`);
}

/** The rows as plain objects: int64 as bigint, timestamps as Date, like the engine's `Row`. */
function toRowObjects(t: Table): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const b of t.batches) {
    const [id, time, lat, lon, depth, temp, sal, platform] = obsSchema.fields.map((f) => b.getChild(f.name)!);
    const ids = id!.toArray() as BigInt64Array;
    const times = time!.data[0]!.values as BigInt64Array;
    const la = lat!.toArray() as Float64Array;
    const lo = lon!.toArray() as Float64Array;
    const de = depth!.toArray() as Float64Array;
    const te = temp!.toArray() as Float64Array;
    const sa = sal!.toArray() as Float64Array;
    for (let i = 0; i < b.numRows; i++) {
      rows.push({
        id: ids[i]!,
        time: new Date(Number(times[i]!)),
        lat: la[i]!,
        lon: lo[i]!,
        depth: de[i]!,
        temp: te[i]!,
        salinity: sa[i]!,
        platform: platform!.get(i) as string,
      });
    }
  }
  return rows;
}
