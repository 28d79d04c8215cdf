// Two writes of the same rows racing: the first to finish with a result serves.

/**
 * Resolves with the first of `a` and `b` to finish with a result (both resolve to null on failure,
 * never reject), or null when both failed. The caller removes what the other one wrote.
 * @example
 * const won = first(onWriterThread, here); // later: remove the files of whichever is not `await won`
 */
export function first<T>(a: Promise<T | null>, b: Promise<T | null>): Promise<T | null> {
  return new Promise((resolve) => {
    let pending = 2;
    const take = (result: T | null) => {
      pending--;
      if (result !== null || pending === 0) resolve(result); // later calls are no-ops
    };
    void a.then(take);
    void b.then(take);
  });
}

/**
 * Resolves once `p` has settled or `ms` milliseconds have passed, whichever comes first (never
 * rejects; the timer is cleared when `p` wins).
 * @example
 * await settledWithin(onWriterThread, 15); // then write here too only if it is still not done
 */
export function settledWithin(p: Promise<unknown>, ms: number): Promise<void> {
  if (!(ms > 0)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    p.then(done, done);
  });
}
