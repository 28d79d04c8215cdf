// Loads the generated rows into the engine store and DuckDB, batch by batch, so only one batch is held.
import type { DuckDBBaseline } from './baseline/duckdb.js';
import type { EngineStore } from './engine.js';
import { Field, Schema } from 'apache-arrow';
import { generateBatches, obsSchema } from './generate.js';
import { describeError } from './workloads/workload.js';

/** Load times (ms) per side, and the engine's error if it could not load. */
export interface LoadTimes {
  readonly generateMs: number;
  readonly engineMs?: number;
  readonly duckdbMs: number;
  readonly engineError?: string;
}

/** The observation schema with `index` on depth: the table dynamic partitioning splits by depth. */
export const obsIndexedSchema = new Schema(obsSchema.fields.map((f) => (f.name === 'depth' ? new Field(f.name, f.type, f.nullable, new Map([['index', 'true']])) : f)));

/**
 * Creates `obs` on both sides and inserts every generated batch into each (engine: one insert per
 * batch); with `indexed`, the engine also gets the same rows in `indexed` (index on depth).
 */
export async function loadObs(rows: number, seed: number, duck: DuckDBBaseline, store: EngineStore | undefined, indexed?: string): Promise<LoadTimes> {
  let generateMs = 0;
  let engineMs = 0;
  let duckdbMs = 0;
  let engineError: string | undefined;
  await duck.createObsTable('obs');
  const table = store?.table('obs');
  const second = indexed ? store?.table(indexed) : undefined;
  try {
    await table?.create(obsSchema);
    await second?.create(obsIndexedSchema);
  } catch (e) {
    engineError = describeError(e);
  }
  const batches = generateBatches({ rows, seed });
  for (;;) {
    let t = performance.now();
    const next = batches.next();
    generateMs += performance.now() - t;
    if (next.done) break;
    if (table && !engineError) {
      t = performance.now();
      try {
        await table.insert(next.value);
        await second?.insert(next.value);
      } catch (e) {
        engineError = describeError(e);
      }
      engineMs += performance.now() - t;
    }
    t = performance.now();
    await duck.append('obs', [next.value]);
    duckdbMs += performance.now() - t;
  }
  return { generateMs, engineMs: table && !engineError ? engineMs : undefined, duckdbMs, engineError };
}
