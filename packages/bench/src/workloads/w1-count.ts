// W1: count with a one-column range filter at ~8% and ~0.1% selectivity.
import { countRow } from './count.js';
import type { Workload } from './workload.js';

export const w1: Workload = {
  id: 'W1',
  title: 'count, one predicate',
  async run(ctx) {
    return [
      await countRow(ctx, 'W1 count depth > 5500 (~8%)', 'depth > 5500', 1.0),
      await countRow(ctx, 'W1 count depth > 5994 (~0.1%)', 'depth > 5994', 1.0),
    ];
  },
};
