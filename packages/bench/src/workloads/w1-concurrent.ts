// W1C: W1 (count depth > 5500) while a writer commits 10k-row inserts into the same table in a loop,
// against the idle figure. DuckDB: the same count, idle (its appender and a query on one connection
// deadlock when run concurrently, so there is no busy DuckDB figure).
//
// Both figures are of reads issued back to back, as a reader in a loop issues them: no forced GC
// before each read (a forced full GC blocked the event loop ~20 ms before every read, so neither
// the writer's main-thread half nor compaction's wait for a pause in reads could run between reads,
// and its concurrent sweeping ran into the timed read). The busy figure is of the steady state: the
// writer and the reads run untimed for WARM_MS first, so the writer's code is compiled (V8 compiles
// it on threads at normal priority; a cold part writer thread spent the timed window being compiled)
// and compaction merges at its usual cadence (a merge step waits at most a second for reads to pause).
// The writer's rows (ids past the loaded ones) are deleted afterwards, untimed.
import { generateTable } from '../generate.js';
import { measure } from '../measure.js';
import type { Stats } from '../report.js';
import { describeError, type Workload } from './workload.js';

const FILTER = 'depth > 5500';
const MAX_SLOWDOWN = 1.2;
/** Untimed reads before each figure (with the writer running before the busy one). */
const WARM_MS = 2000;

export const w1Concurrent: Workload = {
  id: 'W1C',
  title: 'W1 while a writer commits',
  async run(ctx) {
    if (typeof ctx.store === 'string') return [{ workload: 'W1C', notes: [`engine error: ${ctx.store}`] }];
    const batch = generateTable({ rows: 10_000, seed: ctx.seed + 1 });
    // the writer's rows get ids past the loaded ones, so they are deleted again afterwards
    for (const b of batch.batches) {
      const ids = b.getChild('id')!.data[0]!.values as BigInt64Array;
      for (let i = 0; i < ids.length; i++) ids[i]! += BigInt(ctx.rows);
    }
    const t = ctx.store.table('obs');
    // about a second of reads per figure: the busy window holds the merges compaction runs about once a second
    const runs = ctx.runs * 10;
    const read = () => t.select(FILTER).count();
    const warm = async () => {
      for (const end = performance.now() + WARM_MS; performance.now() < end; ) await read();
    };
    // both figures after WARM_MS of untimed reads: the idle one is not of scans still being compiled
    await warm();
    const idle = await measure(read, { runs, forceGc: false });
    const busy = await whileRunning(() => t.insert(batch), warm, () => measure(read, { runs, forceGc: false }));
    const commits = busy.commits;
    // the table as loaded for the workloads after this one (RSS streams it): the writer's rows go again
    await t.transaction((tx) => tx.delete(`id >= ${ctx.rows}`));
    await ctx.store.idle();
    const sql = `SELECT count(*) FROM obs WHERE ${FILTER}`;
    const duckIdle = await measure(() => ctx.duck.count(sql), { runs: ctx.runs * 3 });
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

// runs `writer` in a loop while `warm` and then `reads` run; counts the writer's calls that ended
// while `reads` ran; the writer's first error stops it and is reported
async function whileRunning(
  writer: () => Promise<void>,
  warm: () => Promise<void>,
  reads: () => Promise<Stats>,
): Promise<{ result: Stats; ms: number; commits: number; error?: string }> {
  let stop = false;
  let error: string | undefined;
  let done = 0;
  const loop = (async () => {
    while (!stop) {
      try {
        await writer();
        done++;
      } catch (e) {
        error = describeError(e);
        return;
      }
    }
  })();
  await warm();
  const before = done;
  const start = performance.now();
  const result = await reads();
  const ms = performance.now() - start;
  const commits = done - before;
  stop = true;
  await loop;
  return { result, ms, commits, error };
}
