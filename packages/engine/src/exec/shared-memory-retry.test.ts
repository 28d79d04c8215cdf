// sharedBuffer's collector when another thread sets the gc flag back between its setting and the
// context: no gc in the context, tried again at the next collection, given up after three tries.
// (node:vm is mocked to give contexts without gc; the module is loaded afresh for each case.)
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const vm = vi.hoisted(() => ({ failures: 0, calls: 0 }));

vi.mock('node:vm', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:vm')>();
  return {
    ...real,
    runInNewContext: (code: string) => {
      vm.calls++;
      // the race lost: the context was made after another thread had set --no-expose-gc
      return vm.calls <= vm.failures ? undefined : real.runInNewContext(code);
    },
  };
});

const betweenTasks = () => new Promise<void>((resolve) => setImmediate(resolve));

// a fresh copy of the module (its collector not made yet), in a process without a global gc
async function fresh(failures: number) {
  vm.failures = failures;
  vm.calls = 0;
  vi.resetModules();
  vi.stubGlobal('gc', undefined);
  const m = await import('./shared-memory.js');
  // one collection's worth of shared memory, then the collection after the task
  const round = async () => {
    m.sharedBuffer(m.RECLAIM_BYTES);
    await betweenTasks();
  };
  return { ...m, round };
}

describe('sharedBuffer when the gc flag is raced', () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it('tries again at the next collection, and collects once a context has gc', async () => {
    const m = await fresh(2);
    await m.round();
    await m.round();
    expect([vm.calls, m.reclaimCount()]).toEqual([2, 0]);
    await m.round();
    expect([vm.calls, m.reclaimCount()]).toEqual([3, 1]);
    // the collector is kept: no more contexts
    await m.round();
    expect([vm.calls, m.reclaimCount()]).toEqual([3, 2]);
  });

  it('gives up after three tries: no more contexts, no collections', async () => {
    const m = await fresh(Number.POSITIVE_INFINITY);
    for (let i = 0; i < 5; i++) await m.round();
    expect([vm.calls, m.reclaimCount()]).toEqual([3, 0]);
  });
});
