// W1C: W1 (count depth > 5500) while a writer commits 10k-row inserts into the same table in a loop,
// against the idle figure. DuckDB: the same count, idle (its appender and a query on one connection
// deadlock when run concurrently, so there is no busy DuckDB figure).
import { generateTable } from '../generate.js';
import { measure } from '../measure.js';
import type { Stats } from '../report.js';
import { describeError, type Workload } from './workload.js';

const FILTER = 'depth > 5500';
const MAX_SLOWDOWN = 1.2;

export const w1Concurrent: Workload = {
  id: 'W1C',
  title: 'W1 while a writer commits',
  async run(ctx) {
    if (typeof ctx.store === 'string') return [{ workload: 'W1C', notes: [`engine error: ${ctx.store}`] }];
    const batch = generateTable({ rows: 10_000, seed: ctx.seed + 1 });
    const t = ctx.store.table('obs');
    const runs = ctx.runs * 3;
    const idle = await measure(() => t.select(FILTER).count(), { runs });
    let commits = 0;
    const busy = await whileRunning(
      async () => {
        await t.insert(batch);
        commits++;
      },
      () => measure(() => t.select(FILTER).count(), { runs }),
    );
    const sql = `SELECT count(*) FROM obs WHERE ${FILTER}`;
    const duckIdle = await measure(() => ctx.duck.count(sql), { runs });
    const slowdown = busy.result.median / idle.median;
    return [
      {
        workload: `W1C count ${FILTER}, idle`,
        engine: idle,
        duckdb: duckIdle,
        measured: `${(idle.median / duckIdle.median).toFixed(2)}×`,
      },
      {
        workload: `W1C count ${FILTER}, writer committing 10k rows in a loop`,
        engine: busy.result,
        duckdb: duckIdle,
        measured: `${slowdown.toFixed(2)}× idle`,
        target: `≤ ${MAX_SLOWDOWN}× idle`,
        pass: slowdown <= MAX_SLOWDOWN && !busy.error,
        notes: ['DuckDB column: idle', `${commits} engine commits (${(commits / (busy.ms / 1000)).toFixed(1)}/s) during ${busy.ms.toFixed(0)} ms`, ...(busy.error ? [`writer error: ${busy.error}`] : [])],
      },
    ];
  },
};

// runs `writer` in a loop while `reads` runs; the writer's first error stops it and is reported
async function whileRunning(writer: () => Promise<void>, reads: () => Promise<Stats>): Promise<{ result: Stats; ms: number; error?: string }> {
  let stop = false;
  let error: string | undefined;
  const loop = (async () => {
    while (!stop) {
      try {
        await writer();
      } catch (e) {
        error = describeError(e);
        return;
      }
    }
  })();
  await writer(); // the loop is running: one commit done before timing starts
  const start = performance.now();
  const result = await reads();
  const ms = performance.now() - start;
  stop = true;
  await loop;
  return { result, ms, error };
}
