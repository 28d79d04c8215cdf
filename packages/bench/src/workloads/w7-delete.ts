// W7D: delete 1% of the rows and commit; replace 1% (each row again with temp + 1) and commit, in the
// issue's row form (per-row tx.insert) and as record batches. DuckDB: DELETE and UPDATE on its
// in-memory obs. Each run touches a different 1%: a 60 m depth band (depth is uniform over 0–6000 m),
// deletes from 0 m down, row replaces from 3000 m down, batch replaces from 4500 m down. When W1X
// loaded `obs_idx` (the same rows, `index` on depth), the same three run on it too, on bands of their
// own (from 1500, 3600 and 5100 m; DuckDB on obs, whose bands stay disjoint from the others up to
// --runs 9). The row form's note gives what its loop shape alone costs in this process (no engine in it).
import { Float64, RecordBatch, Struct, makeData } from 'apache-arrow';
import type { ResultRow } from '../report.js';
import { agreementNotes, compare, type BenchContext, type Workload } from './workload.js';

const DELETE_MS = 15;
const BAND = 'depth >= $a and depth < $b';
// run -1 is the warm-up
const band = (from: number, run: number) => ({ a: from + 60 * (run + 1), b: from + 60 * (run + 2) });
const REPLACE_MS = 50;

export const w7Delete: Workload = {
  id: 'W7D',
  title: 'delete and replace 1%',
  async run(ctx) {
    const rows = await variants(ctx, 'obs', '', { del: 0, rows: 3000, batches: 4500 });
    if (ctx.indexedTable) rows.push(...(await variants(ctx, ctx.indexedTable, ', index on depth', { del: 1500, rows: 3600, batches: 5100 })));
    return rows;
  },
};

// delete, replace as rows and replace as batches on `table`, each on its own bands starting at `from`
async function variants(ctx: BenchContext, table: string, suffix: string, from: { del: number; rows: number; batches: number }): Promise<ResultRow[]> {
  const del = await compare(
    ctx,
    (store) => {
      const t = store.table(table);
      return (run) => t.transaction((tx) => tx.delete(BAND, { vars: band(from.del, run) }));
    },
    async (run) => {
      const { a, b } = band(from.del, run);
      const n = await ctx.duck.count(`SELECT count(*) FROM obs WHERE depth >= ${a} AND depth < ${b}`);
      await ctx.duck.connection.run(`DELETE FROM obs WHERE depth >= ${a} AND depth < ${b}`);
      return n;
    },
  );
  const update = (start: number) => async (run: number) => {
    const { a, b } = band(start, run);
    const n = await ctx.duck.count(`SELECT count(*) FROM obs WHERE depth >= ${a} AND depth < ${b}`);
    await ctx.duck.connection.run(`UPDATE obs SET temp = temp + 1 WHERE depth >= ${a} AND depth < ${b}`);
    return n;
  };
  const rep = await compare(
    ctx,
    (store) => {
      const t = store.table(table);
      return (run) =>
        t.transaction(async (tx) => {
          let n = 0;
          for await (const old of tx.replace(BAND, { vars: band(from.rows, run) })) {
            await tx.insert({ ...old, temp: (old.temp as number) + 1 });
            n++;
          }
          return n;
        });
    },
    update(from.rows),
  );
  const batches = await compare(
    ctx,
    (store) => {
      const t = store.table(table);
      return (run) =>
        t.transaction(async (tx) => {
          let n = 0;
          for await (const b of tx.replace(BAND, { vars: band(from.batches, run) }).batches()) {
            await tx.insert(plusOne(b, 'temp'));
            n += b.numRows;
          }
          return n;
        });
    },
    update(from.batches),
  );
  const floor = await loopFloor(rep.duckResult);
  const rowForm = rowOf(ctx, `W7D replace 1% (temp + 1) rows + commit${suffix}`, rep, REPLACE_MS);
  return [
    rowOf(ctx, `W7D delete 1% + commit${suffix}`, del, DELETE_MS),
    { ...rowForm, notes: [...(rowForm.notes ?? []), `the row form's loop by itself (for await over as many plain rows from an async generator, each spread and passed to an awaited no-op): ${floor.toFixed(1)} ms median`] },
    rowOf(ctx, `W7D replace 1% (temp + 1) batches + commit${suffix}`, batches, REPLACE_MS),
  ];
}

/**
 * What the row form's loop shape costs with no engine in it: `for await` over `n` plain rows (the
 * obs columns' kinds) from an async generator, each spread with temp + 1 and passed to an awaited
 * no-op; the median of five runs, ms.
 */
async function loopFloor(n: number): Promise<number> {
  const rows = Array.from({ length: n }, (_, i) => ({ id: BigInt(i), time: new Date(i), platform: `p${i % 1000}`, lat: i / n, lon: -i / n, depth: i, temp: 4, geom: null }));
  async function* each() {
    for (const r of rows) yield r;
  }
  const sink = async (_row: object) => {};
  const ms: number[] = [];
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    for await (const old of each()) await sink({ ...old, temp: old.temp + 1 });
    ms.push(performance.now() - start);
  }
  return ms.sort((a, b) => a - b)[2]!;
}

// the batch with `column` (a float64 column without nulls, like obs.temp) plus one, the other columns shared
function plusOne(b: RecordBatch, column: string): RecordBatch {
  const children = b.schema.fields.map((f, i) => {
    const child = b.data.children[i]!;
    if (f.name !== column) return child;
    if (child.nullCount > 0) throw new Error(`plusOne: ${column} has nulls`);
    const from = child.values as Float64Array;
    const values = new Float64Array(b.numRows);
    for (let i = 0; i < values.length; i++) values[i] = from[i]! + 1;
    return makeData({ type: new Float64(), length: b.numRows, nullCount: 0, data: values });
  });
  return new RecordBatch(b.schema, makeData({ type: new Struct(b.schema.fields), length: b.numRows, nullCount: 0, children }));
}

function rowOf(ctx: BenchContext, label: string, c: Awaited<ReturnType<typeof compare<number>>>, targetMs: number): ResultRow {
  return {
    workload: label,
    engine: c.engine,
    duckdb: c.duckdb,
    measured: c.engine ? `${c.engine.median.toFixed(1)} ms` : undefined,
    target: `≤ ${targetMs} ms`,
    pass: c.engine ? c.engine.median <= targetMs && c.engineResult === c.duckResult : undefined,
    notes: [...agreementNotes(c, 'rows', c.engineResult, c.duckResult), `${c.duckResult} rows (${((100 * c.duckResult) / ctx.rows).toFixed(2)}%) per run`],
  };
}
