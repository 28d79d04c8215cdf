// Where a scan through a ready column sketch runs: a delete's match scan of a 1% band inline, a replace's (every column gathered) on the pool.
import { Field, Float64, Schema, makeData } from 'apache-arrow';
import { expect, it } from 'vitest';
import { taskColumn } from '../exec/arrays.js';
import { buildSketch, emptySketch } from '../exec/sketch.js';
import type { ScanTask } from '../exec/task.js';
import { prepareFilter } from '../expr/index.js';
import { GATHER_WEIGHT, sketchWeight } from './execute.js';

const INLINE_ROWS = 1 << 17; // the store's default inlineRows: a task weighing less runs on the calling thread
const N = 1 << 20;

it('weighs a delete\'s match scan of a 1% band of a 1M-row chunk under inlineRows and a replace\'s, gathering 8 columns, over it', () => {
  const values = Float64Array.from({ length: N }, (_, i) => (((i * 7919) % N) / N) * 6000); // spread over 0-6000
  const sketch = emptySketch(N, { min: 0, max: 6000 });
  buildSketch(sketch, values, null, N);
  const data = makeData({ type: new Float64(), length: N, nullCount: 0, data: values });
  const { typed, key, columns } = prepareFilter('depth >= 60 and depth < 120', new Schema([new Field('depth', new Float64(), false)]));
  const task = (mode: ScanTask['mode'], project: string[]): ScanTask => ({
    mode,
    length: N,
    filter: { typed, key, columns },
    columns: { depth: { ...taskColumn(data), sketch } },
    project,
    withRows: mode === 'select',
  });
  expect(sketchWeight(task('select', []))).toBeNull(); // not built yet: it scans every value
  Atomics.store(sketch.state, 0, 2); // ready
  const count = sketchWeight(task('count', []))!;
  const match = sketchWeight(task('select', []))!; // a delete's: positions, no column
  const replace = sketchWeight(task('select', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']))!; // every column of obs
  expect(count).toBeLessThan(match);
  expect(match).toBeLessThan(INLINE_ROWS);
  expect(replace).toBeGreaterThan(INLINE_ROWS);
  // ~10k rows of 1M listed: the gathered values weigh GATHER_WEIGHT each
  expect(replace - match).toBe(GATHER_WEIGHT * 8 * (match - (N >> 5)));
});
