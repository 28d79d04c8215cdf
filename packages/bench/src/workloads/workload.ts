// What a workload is, what it gets to run against, and the side-by-side timing they share.
import type { DuckDBBaseline } from '../baseline/duckdb.js';
import type { EngineStore, OpenEngine } from '../engine.js';
import { timedRun, type MeasureOptions } from '../measure.js';
import { stats, type ResultRow, type Stats } from '../report.js';

/** Everything a workload runs against; `obs` holds the same rows in the engine store and in DuckDB. */
export interface BenchContext {
  readonly rows: number;
  readonly runs: number;
  readonly seed: number;
  readonly workers: number;
  readonly duck: DuckDBBaseline;
  /** The open store holding `obs`, or why the engine is unavailable. */
  readonly store: EngineStore | string;
  readonly storePath: string;
  readonly openEngine: OpenEngine | string;
  /** The table holding obs's rows with `index` on depth, when W1X is in the run and loaded it. */
  readonly indexedTable?: string;
}

/** A named workload; `run` returns one report row per variant. */
export interface Workload {
  readonly id: string;
  readonly title: string;
  run(ctx: BenchContext): Promise<ResultRow[]>;
}

/** Both sides of one variant: stats and last result of each; `engineError` when the engine side failed. */
export interface Compared<T> {
  readonly engine?: Stats;
  readonly engineResult?: T;
  readonly engineError?: string;
  readonly duckdb: Stats;
  readonly duckResult: T;
}

/**
 * Times `engine` (against the store) and `duck` in alternation (engine, DuckDB, engine, ...), `ctx.runs`
 * runs each after a warm-up, so load that comes and goes on a shared machine falls on both alike. When
 * the engine side fails, its error is kept and DuckDB is timed alone.
 * @example
 * const c = await compare(ctx, (s) => () => s.table('obs').select('depth > 1').count(), () => ctx.duck.count(sql));
 */
export async function compare<T>(
  ctx: BenchContext,
  engine: (store: EngineStore) => (run: number) => Promise<T>,
  duck: (run: number) => Promise<T>,
  opts: Partial<MeasureOptions> & { engineSetup?: MeasureOptions['setup']; duckSetup?: MeasureOptions['setup'] } = {},
): Promise<Compared<T>> {
  const runs = opts.runs ?? ctx.runs;
  let engineError = typeof ctx.store === 'string' ? ctx.store : undefined;
  const engineRun = typeof ctx.store === 'string' ? undefined : engine(ctx.store);
  const samples: [number[], number[]] = [[], []];
  let engineResult: T | undefined;
  let duckResult: T | undefined;
  for (let run = -(opts.warmup ?? 1); run < runs; run++) {
    if (engineRun && engineError === undefined) {
      try {
        const [ms, r] = await timedRun(engineRun, opts.engineSetup, run);
        engineResult = r;
        if (run >= 0) samples[0].push(ms);
      } catch (e) {
        engineError = describeError(e);
      }
    }
    const [ms, r] = await timedRun(duck, opts.duckSetup, run);
    duckResult = r;
    if (run >= 0) samples[1].push(ms);
  }
  const engineSide = engineError === undefined ? { engine: stats(samples[0]), engineResult } : { engineError };
  return { ...engineSide, duckdb: stats(samples[1]), duckResult: duckResult as T };
}

/** An error as one line: code and message, no stack. */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return `${e.name}${code ? ` [${String(code)}]` : ''}: ${e.message}`;
  }
  return String(e);
}

/** Notes for a variant: the engine error, or a mismatch between the two answers. */
export function agreementNotes(c: Compared<unknown>, what: string, engineValue: unknown, duckValue: unknown): string[] {
  if (c.engineError) return [`engine error: ${c.engineError}`];
  if (engineValue !== duckValue) return [`MISMATCH: engine ${what} ${String(engineValue)}, DuckDB ${String(duckValue)}`];
  return [];
}
