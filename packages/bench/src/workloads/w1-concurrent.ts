// W1C: W1 (count depth > 5500) while a writer commits 10k-row inserts into the same table in a loop,
// against the idle figure. DuckDB: the same count, idle and while its own writer appends the same
// 10k rows in a loop (an appender per append, flushed: a commit each) on a second connection (an
// appender and a query on one connection deadlock), measured the same way after the engine's rounds,
// its appends paced at the engine's commit rate (unpaced, in memory and never synced, DuckDB appended
// hundreds a second and grew the table by millions of rows a second, to the machine's memory).
//
// Both figures are of reads issued back to back, as a reader in a loop issues them: no forced GC
// before each read (a forced full GC blocked the event loop ~20 ms before every read, so neither
// the writer's main-thread half nor compaction's wait for a pause in reads could run between reads,
// and its concurrent sweeping ran into the timed read). The busy figure is of the steady state: the
// writer and the reads run untimed for WARM_MS first, so the writer's code is compiled (V8 compiles
// it on threads at normal priority; a cold part writer thread spent the timed window being compiled)
// and compaction merges at its usual cadence (a merge step waits at most a second for reads to pause).
// The two figures come from ROUNDS rounds of an idle window then a busy one (the writer stopped and
// compaction finished between rounds), and a last idle window: this machine's speed drifts by tens
// of percent over seconds (other guests on the host), and a single idle window followed seconds
// later by a single busy one measured that drift as much as the writer (1.01-1.44× for one build in
// session 9). The writer's rows stay in the table, so a busy window reads more rows than the idle one
// before it (at 47-70 commits a second, 10M rows grow by 1.2-1.8M by the middle of the first busy window; an idle count over 12M rows
// takes 16% longer than over 10M, session 20); each round's slowdown is therefore its busy median over
// the idle figure at the busy window's table size, interpolated between the idle windows before and
// after it (`interleaved`); the slowdown is the median of the rounds', and the notes give each
// round's against the idle window before it too, as measured up to session 19. The figures pool
// every round's reads. The writer's rows (ids past the loaded ones) are deleted afterwards, untimed.
import type { RecordBatch } from 'apache-arrow';
import { generateTable } from '../generate.js';
import { timings } from '../measure.js';
import { stats, type Stats } from '../report.js';
import { type BenchContext, describeError, type Workload } from './workload.js';

const FILTER = 'depth > 5500';
const MAX_SLOWDOWN = 1.2;
/** Untimed reads before each figure (with the writer running before the busy one). */
const WARM_MS = 2000;
/** Rounds of an idle and a busy window. */
const ROUNDS = 3;

export const w1Concurrent: Workload = {
  id: 'W1C',
  title: 'W1 while a writer commits',
  async run(ctx) {
    const store = ctx.store;
    if (typeof store === 'string') return [{ workload: 'W1C', notes: [`engine error: ${store}`] }];
    const batch = generateTable({ rows: 10_000, seed: ctx.seed + 1 });
    // the writer's rows get ids past the loaded ones, so they are deleted again afterwards
    for (const b of batch.batches) {
      const ids = b.getChild('id')!.data[0]!.values as BigInt64Array;
      for (let i = 0; i < ids.length; i++) ids[i]! += BigInt(ctx.rows);
    }
    const t = store.table('obs');
    // about a second of reads per figure: the busy window holds the merges compaction runs about once a second
    const runs = ctx.runs * 10;
    const read = () => t.select(FILTER).count();
    const warm = untimed(read);
    // both figures after WARM_MS of untimed reads: the idle one is not of scans still being compiled
    await warm();
    const window = () => timings(read, { runs, forceGc: false });
    const rows = await t.select().count();
    const rounds = await interleaved(
      ROUNDS,
      window,
      () => whileRunning(() => t.insert(batch), warm, window),
      () => store.idle(), // the writer's merges end before the next idle window
      { rows, perCommit: batch.numRows },
    );
    const { idle, busy, slowdown, ratios, raw, busyRows, idleRows, commits, ms, error } = rounds;
    // the table as loaded for the workloads after this one (RSS streams it): the writer's rows go again
    await t.transaction((tx) => tx.delete(`id >= ${ctx.rows}`));
    await store.idle();
    // about a second of DuckDB's counts per window too (each takes ~50 ms, the engine's ~12)
    const rate = Math.max(1, commits / (ms / 1000));
    const duck = await duckRounds(ctx, batch.batches, ctx.runs * 3, rate);
    const each = (rs: number[]) => rs.map((r) => `${r.toFixed(2)}×`).join(', ');
    const millions = (rs: number[]) => rs.map((r) => (r / 1e6).toFixed(2)).join(', ');
    return [
      {
        workload: `W1C count ${FILTER}, idle`,
        engine: idle,
        duckdb: duck.idle,
        measured: `${(idle.median / duck.idle.median).toFixed(2)}×`,
      },
      {
        workload: `W1C count ${FILTER}, writer committing 10k rows in a loop`,
        engine: busy,
        duckdb: duck.busy,
        measured: `${slowdown.toFixed(2)}× idle`,
        target: `≤ ${MAX_SLOWDOWN}× idle`,
        pass: slowdown <= MAX_SLOWDOWN && !error,
        notes: [
          `median of ${ratios.length} rounds (idle window, busy, idle), each against the idle figure at the busy window's table size: ${each(ratios)}`,
          `table rows (M): idle windows ${millions(idleRows)}, busy windows ${millions(busyRows)} on average; against the idle window before, whatever its size: ${each(raw)} (median ${stats(raw).median.toFixed(2)}×)`,
          `${commits} engine commits (${(commits / (ms / 1000)).toFixed(1)}/s) during ${ms.toFixed(0)} ms of busy windows`,
          `DuckDB beside its own writer (10k-row appends on a second connection, paced at the engine's rate: ${(duck.commits / (duck.ms / 1000)).toFixed(1)}/s): ${duck.slowdown.toFixed(2)}× its idle figure at the same size, rounds ${each(duck.ratios)}; against the idle window before ${each(duck.raw)}`,
          ...(error ? [`writer error: ${error}`] : []),
          ...(duck.error ? [`DuckDB writer error: ${duck.error}`] : []),
        ],
      },
    ];
  },
};

/**
 * The same rounds on DuckDB: its count idle, and while its own writer appends `rows` (ids past the
 * loaded ones, deleted again afterwards) on a second connection in a loop, `perSecond` times a second at most.
 */
async function duckRounds(ctx: BenchContext, rows: readonly RecordBatch[], runs: number, perSecond: number): ReturnType<typeof interleaved> {
  const sql = `SELECT count(*) FROM obs WHERE ${FILTER}`;
  const read = () => ctx.duck.count(sql);
  const warm = untimed(read);
  const window = () => timings(read, { runs, forceGc: false });
  const writer = await ctx.duck.writer('obs');
  try {
    await warm();
    const size = await ctx.duck.count('SELECT count(*) FROM obs');
    return await interleaved(
      ROUNDS,
      window,
      () => whileRunning(paced(async () => void (await writer.append(rows)), perSecond), warm, window),
      async () => undefined,
      { rows: size, perCommit: rows.reduce((n, b) => n + b.numRows, 0) },
    );
  } finally {
    writer.close();
    await ctx.duck.connection.run(`DELETE FROM obs WHERE id >= ${ctx.rows}`);
  }
}

/** `read` called back to back for WARM_MS, untimed. */
const untimed = (read: () => Promise<unknown>) => async (): Promise<void> => {
  for (const end = performance.now() + WARM_MS; performance.now() < end; ) await read();
};

/** `fn`, at most `perSecond` calls a second: each call then waits out the rest of its slot. */
export function paced(fn: () => Promise<void>, perSecond: number): () => Promise<void> {
  const slot = 1000 / perSecond;
  return async () => {
    const start = performance.now();
    await fn();
    const rest = slot - (performance.now() - start);
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  };
}

/**
 * A busy window: its reads (ms), how long it took, the writer's commits acknowledged before it
 * (while the untimed reads warmed up), in it, and in all (until the writer stopped), the writer's error.
 */
export interface BusyWindow {
  readonly result: number[];
  readonly ms: number;
  readonly before: number;
  readonly commits: number;
  readonly total: number;
  readonly error?: string;
}

/** The rounds of {@link interleaved}: the figures, each round's slowdown both ways, the table's sizes. */
export interface Rounds {
  readonly idle: Stats;
  readonly busy: Stats;
  /** The median of the rounds' size-matched slowdowns (`ratios`). */
  readonly slowdown: number;
  /** Per round: the busy median over the idle figure at the table's size in the busy window (interpolated). */
  readonly ratios: number[];
  /** Per round: the busy median over the median of the idle window before it, whatever the sizes. */
  readonly raw: number[];
  /** Rows in the table in each idle window (one more than the rounds), and on average in each busy window. */
  readonly idleRows: number[];
  readonly busyRows: number[];
  readonly commits: number;
  readonly ms: number;
  readonly error?: string;
}

/**
 * `rounds` rounds of `idle()` then `busy()`, `settle()` after each busy one, and a last idle window
 * after the last round; the table has `rows` rows at first and `perCommit` more after each commit.
 * The writer's rows make the busy windows read a bigger table than the idle one before them (at ~70
 * commits a second, 10M rows grow by ~1.4M in the 2 s warm-up alone, and a count takes ~8% longer
 * per million rows), so each busy median is set against the idle figure at the busy window's mean
 * size, interpolated between the medians of the idle windows before and after it (in rows; it also
 * cancels drift of the machine's speed that is linear in time). A writer's error ends the rounds.
 */
export async function interleaved(
  rounds: number,
  idle: () => Promise<number[]>,
  busy: () => Promise<BusyWindow>,
  settle: () => Promise<void>,
  table: { readonly rows: number; readonly perCommit: number },
): Promise<Rounds> {
  const idleMs: number[] = [];
  const busyMs: number[] = [];
  const idleMedians: number[] = [];
  const busyMedians: number[] = [];
  const idleRows: number[] = [];
  const busyRows: number[] = [];
  let rows = table.rows;
  let commits = 0;
  let ms = 0;
  let error: string | undefined;
  const quietWindow = async () => {
    const quiet = await idle();
    idleMs.push(...quiet);
    idleMedians.push(stats(quiet).median);
    idleRows.push(rows);
  };
  for (let r = 0; r < rounds && error === undefined; r++) {
    await quietWindow();
    const loaded = await busy();
    await settle();
    busyMs.push(...loaded.result);
    busyMedians.push(stats(loaded.result).median);
    busyRows.push(rows + table.perCommit * (loaded.before + loaded.commits / 2));
    rows += table.perCommit * loaded.total;
    commits += loaded.commits;
    ms += loaded.ms;
    error = loaded.error;
  }
  await quietWindow();
  const ratios = busyMedians.map((b, r) => b / idleAt(busyRows[r]!, idleRows[r]!, idleMedians[r]!, idleRows[r + 1]!, idleMedians[r + 1]!));
  const raw = busyMedians.map((b, r) => b / idleMedians[r]!);
  return { idle: stats(idleMs), busy: stats(busyMs), slowdown: stats(ratios).median, ratios, raw, idleRows, busyRows, commits, ms, ...(error ? { error } : {}) };
}

// the idle figure at `rows` rows, on the line through the idle medians `m0` at `r0` and `m1` at `r1` rows
function idleAt(rows: number, r0: number, m0: number, r1: number, m1: number): number {
  return r1 === r0 ? m0 : m0 + ((m1 - m0) * (rows - r0)) / (r1 - r0);
}

// runs `writer` in a loop while `warm` and then `reads` run; counts the writer's calls that ended
// before `reads` began, while they ran, and in all; the writer's first error stops it and is reported
async function whileRunning(writer: () => Promise<void>, warm: () => Promise<void>, reads: () => Promise<number[]>): Promise<BusyWindow> {
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
  return { result, ms, before, commits, total: done, ...(error ? { error } : {}) };
}
