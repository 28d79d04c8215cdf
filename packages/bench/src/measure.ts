// Timing: warm-up, then `runs` timed runs, each after an untimed setup and a full GC.
import { Bench } from 'tinybench';
import { stats, type Stats } from './report.js';

/** Options of {@link measure}. */
export interface MeasureOptions {
  readonly runs: number;
  readonly warmup?: number;
  /** Untimed work before each run (warm-up runs included), e.g. creating a fresh table. */
  readonly setup?: (run: number) => Promise<void> | void;
  /**
   * Force a full GC before each run (default true): keeps garbage of earlier work out of the timed
   * run. Off where the runs share the process with other work whose GC is part of what is measured
   * (W1C: a forced GC blocks the event loop before every read and sweeps into it, which a reader
   * in a loop would not do).
   */
  readonly forceGc?: boolean;
}

/**
 * Runs `fn` `warmup` times untimed, then `runs` times timed; `check` sees every result.
 * @example
 * const s = await measure(() => db.count(sql), { runs: 7 });
 */
export async function measure<T>(fn: (run: number) => Promise<T>, opts: MeasureOptions, check?: (result: T) => void): Promise<Stats> {
  return stats(await timings(fn, opts, check));
}

/** `measure`'s samples themselves, in run order (ms), for figures pooled over several windows. */
export async function timings<T>(fn: (run: number) => Promise<T>, opts: MeasureOptions, check?: (result: T) => void): Promise<number[]> {
  const warmup = opts.warmup ?? 1;
  const samples: number[] = [];
  for (let run = -warmup; run < opts.runs; run++) {
    const [ms, result] = await timedRun(fn, opts.setup, run, opts.forceGc ?? true);
    check?.(result);
    if (run >= 0) samples.push(ms);
  }
  return samples;
}

/** One run of `fn` after its untimed `setup` and (unless `forceGc` is false) a full GC: [milliseconds, result]. */
export async function timedRun<T>(fn: (run: number) => Promise<T>, setup: MeasureOptions['setup'], run: number, forceGc = true): Promise<[number, T]> {
  await setup?.(run);
  if (forceGc) collectGarbage();
  const start = performance.now();
  const result = await fn(run);
  return [performance.now() - start, result];
}

/**
 * Latency of a short operation from tinybench: as many runs as fit in `timeMs` after a warm-up.
 * @example
 * const s = await measureMany(() => t.select('depth > 1').count(), 1000);
 */
export async function measureMany(fn: () => Promise<unknown>, timeMs: number): Promise<Stats> {
  collectGarbage();
  const bench = new Bench({ time: timeMs, iterations: 20, warmupTime: Math.min(500, timeMs), warmupIterations: 50, throws: true });
  bench.add('op', fn);
  await bench.run();
  const latency = bench.tasks[0]?.result?.latency;
  if (!latency) throw new Error('tinybench produced no result');
  return { min: latency.min, median: latency.p50 ?? latency.mean, max: latency.max, runs: latency.samples.length };
}

/** A full GC when node runs with --expose-gc (the bench script does). */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Two functions measured in alternation (a, b, a, b, ...), each run after a full GC, so load that
 * comes and goes on a shared machine falls on both alike; `check` sees every result.
 * @example
 * const [local, remote] = await measurePair(() => count(local), () => count(remote), { runs: 5 });
 */
export async function measurePair<T>(
  a: (run: number) => Promise<T>,
  b: (run: number) => Promise<T>,
  opts: Pick<MeasureOptions, 'runs' | 'warmup'>,
  check?: (which: 0 | 1, result: T) => void,
): Promise<[Stats, Stats]> {
  const warmup = opts.warmup ?? 1;
  const samples: [number[], number[]] = [[], []];
  for (let run = -warmup; run < opts.runs; run++) {
    for (const which of [0, 1] as const) {
      const [ms, result] = await timedRun(which === 0 ? a : b, undefined, run);
      check?.(which, result);
      if (run >= 0) samples[which].push(ms);
    }
  }
  return [stats(samples[0]), stats(samples[1])];
}
