// Environment knobs for soak runs of the randomised tests; unset, every test keeps CI's own seed, size and timeout.
import type { Parameters } from 'fast-check';

/**
 * The knobs, all integers:
 * - HALOCLINE_SOAK_SEED: the seed of a randomised test (fast-check's `seed`, the crash test's kill delays).
 * - HALOCLINE_SOAK_RUNS: fast-check's `numRuns` for every property of the file run.
 * - HALOCLINE_SOAK_PATH: fast-check's `path` (a string), to replay the shrunk counterexample a failure printed.
 * - HALOCLINE_SOAK_KILLS: how many times the crash test kills its child.
 * - HALOCLINE_SOAK_STEPS: how many steps each child of the multi-process test runs.
 * @example HALOCLINE_SOAK_SEED=$RANDOM HALOCLINE_SOAK_RUNS=300 nice -n 10 npx vitest run src/mvcc/model.property.test.ts
 */
export type SoakKnob = 'HALOCLINE_SOAK_SEED' | 'HALOCLINE_SOAK_RUNS' | 'HALOCLINE_SOAK_KILLS' | 'HALOCLINE_SOAK_STEPS';

/** The integer a knob is set to, or `fallback` when it is unset; a value that is not an integer is an error naming the variable. */
export function soakInt<T extends number | undefined>(name: SoakKnob, fallback: T): number | T {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * fast-check parameters: `numRuns` (HALOCLINE_SOAK_RUNS, else CI's), and `seed` and `path` when set
 * (else fast-check's random seed, which it prints with a failure, as it prints a set one).
 */
export function checkParams<Ts>(numRuns: number): Parameters<Ts> {
  const seed = soakInt('HALOCLINE_SOAK_SEED', undefined);
  const path = process.env.HALOCLINE_SOAK_PATH;
  return { numRuns: soakInt('HALOCLINE_SOAK_RUNS', numRuns), ...(seed === undefined ? {} : { seed }), ...(path ? { path } : {}) };
}

/** A test's timeout, `ms` for CI's size, grown in proportion when a soak run asks for `size` instead of `ciSize`. */
export function soakTimeout(ms: number, ciSize: number, size: number): number {
  return Math.max(ms, Math.ceil((ms * size) / Math.max(1, ciSize)));
}

/** Runs `f`; a failure is rethrown with `label` (e.g. the seed that reproduces it) in front of its message. */
export async function labelled<T>(label: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof Error) e.message = `${label}: ${e.message}`;
    throw e;
  }
}

/** A seeded generator of numbers in [0, 1): a 31-bit LCG in exact integer arithmetic (Math.imul: the product of two such numbers is beyond a double's 53 bits), enough to spread kill delays. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff) / 2 ** 31;
}
