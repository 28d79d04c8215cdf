// A filtered count on both sides, judged on the ratio of medians (shared by W1 and W2).
import type { ResultRow } from '../report.js';
import { ratio } from '../report.js';
import { agreementNotes, compare, type BenchContext } from './workload.js';

/** Counts `filter` on `obs` (engine `select(filter).count()`, DuckDB `SELECT count(*) ... WHERE filter`). */
export async function countRow(ctx: BenchContext, label: string, filter: string, maxRatio: number): Promise<ResultRow> {
  const sql = `SELECT count(*) FROM obs WHERE ${filter}`;
  const c = await compare(
    ctx,
    (store) => {
      const t = store.table('obs');
      return () => t.select(filter).count();
    },
    () => ctx.duck.count(sql),
  );
  const q = ratio(c);
  const notes = agreementNotes(c, 'count', c.engineResult, c.duckResult);
  notes.push(`matches ${c.duckResult} of ${ctx.rows} rows (${((100 * c.duckResult) / ctx.rows).toFixed(2)}%)`);
  return {
    workload: label,
    engine: c.engine,
    duckdb: c.duckdb,
    measured: q === undefined ? undefined : `${q.toFixed(2)}×`,
    target: `≤ ${maxRatio.toFixed(1)}× DuckDB`,
    pass: q === undefined ? undefined : q <= maxRatio && !c.engineError && c.engineResult === c.duckResult,
    notes,
  };
}
