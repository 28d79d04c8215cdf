// The engine under test, imported from @halocline/engine's build at run time, so the DuckDB side of the
// benchmark still runs (and says why) when the engine is not built. Types come from the engine itself.
import type { Store, Table } from '@halocline/engine';

export type EngineStore = Store;
export type EngineTable = Table;

/** Opens a store at `path` with `workers` scan threads. */
export type OpenEngine = (path: string, workers: number) => Promise<EngineStore>;

/**
 * Imports `@halocline/engine`; resolves to an opener, or to the reason it cannot be used.
 * @example
 * const engine = await loadEngine(); if (typeof engine === 'string') console.log(engine);
 */
export async function loadEngine(): Promise<OpenEngine | string> {
  const specifier = '@halocline/engine';
  try {
    const { openStore } = (await import(specifier)) as typeof import('@halocline/engine');
    if (typeof openStore !== 'function') return `${specifier} does not export openStore`;
    return (path, workers) => openStore({ path, workers });
  } catch (e) {
    return `${specifier} is not available (build it: npx turbo run build --filter=${specifier}): ${(e as Error).message}`;
  }
}
