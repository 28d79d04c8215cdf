// Keys of the LMDB kill test (storage/lmdb-kill.test.ts) and its child (lmdb-kill-child.ts).

/** A child removes its key of this many commits back: one its parent saw acknowledged is still there. */
export const KILL_LAG = 200;

/** The prefix of every key child `id` writes. */
export const killPrefix = (id: string): string => `c/${id}/`;

/** The key child `id` writes in its commit `n`. */
export const killKey = (id: string, n: number): string => `${killPrefix(id)}${String(n).padStart(8, '0')}`;

/** The commit a key of `killKey` was written by. */
export const killCommit = (key: string): number => Number(key.slice(key.lastIndexOf('/') + 1));

/**
 * What is wrong with the commits of a child the store holds (`held`, ascending) after it acknowledged
 * commit `acked`, or undefined: commit m puts key m and removes key m - KILL_LAG, so after the newest,
 * `hi`, the keys are exactly the KILL_LAG (or hi + 1) commits up to it, and hi is at or after `acked`.
 */
export function windowProblem(held: readonly number[], acked: number): string | undefined {
  if (held.length === 0) return 'the store holds none of its commits';
  const hi = held[held.length - 1]!;
  const lo = Math.max(0, hi - KILL_LAG + 1);
  const range = `the store holds ${held.length} of its commits, ${held[0]} to ${hi}`;
  if (hi < acked) return `${range}: its newest commit is older than the acknowledged one`;
  return held.length !== hi - lo + 1 || held[0] !== lo ? `${range}: commits ${lo} to ${hi} should all be there` : undefined;
}
