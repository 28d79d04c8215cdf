// What a workload is, what it gets to run against, and the side-by-side timing they share.
import type { DuckDBBaseline } from '../baseline/duckdb.js';
import type { EngineStore, OpenEngine } from '../engine.js';
import { measure, type MeasureOptions } from '../measure.js';
import type { ResultRow, Stats } from '../report.js';

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
 * Times `engine` (against the store) then `duck`, `ctx.runs` runs each after a warm-up.
 * @example
 * const c = await compare(ctx, (s) => () => s.table('obs').select('depth > 1').count(), () => ctx.duck.count(sql));
 */
export async function compare<T>(
  ctx: BenchContext,
  engine: (store: EngineStore) => (run: number) => Promise<T>,
  duck: (run: number) => Promise<T>,
  opts: Partial<MeasureOptions> & { engineSetup?: MeasureOptions['setup']; duckSetup?: MeasureOptions['setup'] } = {},
): Promise<Compared<T>> {
  const base = { runs: opts.runs ?? ctx.runs, warmup: opts.warmup ?? 1 };
  let engineSide: Pick<Compared<T>, 'engine' | 'engineResult' | 'engineError'>;
  if (typeof ctx.store === 'string') {
    engineSide = { engineError: ctx.store };
  } else {
    try {
      let last: T | undefined;
      const s = await measure(engine(ctx.store), { ...base, setup: opts.engineSetup }, (r) => (last = r));
      engineSide = { engine: s, engineResult: last };
    } catch (e) {
      engineSide = { engineError: describeError(e) };
    }
  }
  let duckResult: T | undefined;
  const duckdb = await measure(duck, { ...base, setup: opts.duckSetup }, (r) => (duckResult = r));
  return { ...engineSide, duckdb, duckResult: duckResult as T };
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
