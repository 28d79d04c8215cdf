// W2: count with a conjunction over two columns.
import { countRow } from './count.js';
import type { Workload } from './workload.js';

export const w2: Workload = {
  id: 'W2',
  title: 'count, two predicates',
  async run(ctx) {
    return [await countRow(ctx, 'W2 count depth > 100 and temp < 5', 'depth > 100 and temp < 5', 1.0)];
  },
};
