// Keys of the LMDB kill test (storage/lmdb-kill.test.ts) and its child (lmdb-kill-child.ts).

/** A child removes its key of this many commits back: one its parent saw acknowledged is still there. */
export const KILL_LAG = 200;

/** The key child `id` writes in its commit `n`. */
export const killKey = (id: string, n: number): string => `c/${id}/${String(n).padStart(8, '0')}`;
