// W7D: delete 1% of the rows and commit; replace 1% (each row again with temp + 1) and commit.
// DuckDB: DELETE and UPDATE on its in-memory obs. Each run touches a different 1%: a 60 m depth band
// (depth is uniform over 0–6000 m), deletes from 0 m down, replaces from 3000 m down.
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
    const del = await compare(
      ctx,
      (store) => {
        const t = store.table('obs');
        return (run) => t.transaction((tx) => tx.delete(BAND, { vars: band(0, run) }));
      },
      async (run) => {
        const { a, b } = band(0, run);
        const n = await ctx.duck.count(`SELECT count(*) FROM obs WHERE depth >= ${a} AND depth < ${b}`);
        await ctx.duck.connection.run(`DELETE FROM obs WHERE depth >= ${a} AND depth < ${b}`);
        return n;
      },
    );
    const rep = await compare(
      ctx,
      (store) => {
        const t = store.table('obs');
        return (run) =>
          t.transaction(async (tx) => {
            const next: Record<string, unknown>[] = [];
            for await (const old of tx.replace(BAND, { vars: band(3000, run) })) next.push({ ...old, temp: (old.temp as number) + 1 });
            await tx.insert(next);
            return next.length;
          });
      },
      async (run) => {
        const { a, b } = band(3000, run);
        const n = await ctx.duck.count(`SELECT count(*) FROM obs WHERE depth >= ${a} AND depth < ${b}`);
        await ctx.duck.connection.run(`UPDATE obs SET temp = temp + 1 WHERE depth >= ${a} AND depth < ${b}`);
        return n;
      },
    );
    return [rowOf(ctx, 'W7D delete 1% + commit', del, DELETE_MS), rowOf(ctx, 'W7D replace 1% (temp + 1) + commit', rep, REPLACE_MS)];
  },
};

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
