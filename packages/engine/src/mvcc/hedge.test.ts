// The race of two writes: the first to finish with a result serves, in any completion order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { first } from './hedge.js';

describe('first', () => {
  it('resolves with the first result by completion order, null only when both failed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(fc.option(fc.string(), { nil: null }), fc.option(fc.string(), { nil: null })), fc.boolean(), async ([ra, rb], aFirst) => {
        let endA = () => {};
        let endB = () => {};
        const a = new Promise<string | null>((r) => (endA = () => r(ra)));
        const b = new Promise<string | null>((r) => (endB = () => r(rb)));
        const won = first(a, b);
        const order = aFirst ? [endA, endB] : [endB, endA];
        for (const end of order) {
          end();
          await new Promise((r) => setImmediate(r));
        }
        const byCompletion = aFirst ? [ra, rb] : [rb, ra];
        expect(await won).toBe(byCompletion.find((x) => x !== null) ?? null);
      }),
    );
  });
});
