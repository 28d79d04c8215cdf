// compare() alternates the engine and DuckDB sides and keeps going with DuckDB alone once the engine fails.
import { describe, expect, it } from 'vitest';
import type { EngineStore } from '../engine.js';
import { compare, type BenchContext } from './workload.js';

const ctxWith = (store: EngineStore | string) => ({ runs: 3, store }) as unknown as BenchContext;

describe('compare', () => {
  it('runs engine and DuckDB in alternation, each after its own setup, warm-up excluded', async () => {
    const calls: string[] = [];
    const c = await compare(
      ctxWith({} as EngineStore),
      () => async (run) => (calls.push(`e${run}`), run),
      async (run) => (calls.push(`d${run}`), run),
      { engineSetup: (run) => void calls.push(`se${run}`), duckSetup: (run) => void calls.push(`sd${run}`) },
    );
    expect(calls).toEqual(['se-1', 'e-1', 'sd-1', 'd-1', 'se0', 'e0', 'sd0', 'd0', 'se1', 'e1', 'sd1', 'd1', 'se2', 'e2', 'sd2', 'd2']);
    expect([c.engine?.runs, c.duckdb.runs, c.engineResult, c.duckResult]).toEqual([3, 3, 2, 2]);
  });

  it('keeps the engine error and times DuckDB alone from then on', async () => {
    const calls: string[] = [];
    const c = await compare(
      ctxWith({} as EngineStore),
      () => async (run) => {
        if (run === 1) throw Object.assign(new Error('boom'), { code: 'Internal' });
        calls.push(`e${run}`);
        return run;
      },
      async (run) => (calls.push(`d${run}`), run),
    );
    expect(calls).toEqual(['e-1', 'd-1', 'e0', 'd0', 'd1', 'd2']);
    expect(c.engine).toBeUndefined();
    expect(c.engineError).toBe('Error [Internal]: boom');
    expect(c.duckdb.runs).toBe(3);
  });

  it('reports an unavailable engine and still times DuckDB', async () => {
    const c = await compare(ctxWith('no engine'), () => async () => 1, async () => 2);
    expect([c.engineError, c.duckdb.runs, c.duckResult]).toEqual(['no engine', 3, 2]);
  });
});
