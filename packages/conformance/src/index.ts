// @halocline/conformance: the tabular v2 behaviours of the service spec as one vitest suite over any TableApi.
import type { TableApi } from '@halocline/engine';
import { describe } from 'vitest';
import { aggregateSuite } from './suite/aggregate.js';
import { rawSuite } from './suite/raw.js';
import { schemaSuite } from './suite/schema.js';
import { selectSuite } from './suite/select.js';
import { txSuite } from './suite/transactions.js';

/** What the suite runs against: a name for the report and a factory of fresh, schema-less tables. */
export interface ConformanceTarget {
  readonly name: string;
  /** A new table that does not exist yet (no schema); each call a different one. */
  readonly openTable: () => Promise<TableApi>;
}

/**
 * Registers the suite (call it at the top level of a vitest test file).
 * @example
 * runConformance({ name: 'engine', openTable: async () => store.table(randomUUID()) })
 */
export function runConformance(target: ConformanceTarget): void {
  describe(`tabular v2 conformance: ${target.name}`, () => {
    schemaSuite(target.openTable);
    selectSuite(target.openTable);
    aggregateSuite(target.openTable);
    txSuite(target.openTable);
    rawSuite(target.openTable);
  });
}

export { fixtureSchema, fixtureRows } from './suite/fixture.js';
