// Small scan tasks ride along with the batches a scan sends to the pool anyway; alone, they run inline.
import { type Data, Field, Float64, Int32, Schema, makeData } from 'apache-arrow';
import { expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { taskColumn } from '../exec/arrays.js';
import type { Executor } from '../exec/executor.js';
import type { ScanTask } from '../exec/task.js';
import { prepareFilter } from '../expr/index.js';
import { sharedData } from '../write/part-writer.js';
import { freshStore } from '../test-util/store.js';
import { rideAlong } from './execute.js';

const schema = new Schema([new Field('id', new Int32(), false), new Field('v', new Float64(), true)]);

// counts the tasks an executor runs
function counted(ex: Executor): { tasks: number } {
  const seen = { tasks: 0 };
  const run = ex.run.bind(ex);
  const batch = ex.runBatch.bind(ex);
  Object.assign(ex, {
    run: (t: ScanTask) => (seen.tasks++, run(t)),
    runBatch: (ts: readonly ScanTask[]) => ((seen.tasks += ts.length), batch(ts)),
  });
  return seen;
}

it('sends the small partitions of a scan with pooled ones to the pool, and runs them inline alone', async () => {
  // a partition of 2000 rows goes to the pool (inlineRows 1000); the 50-row deltas are small
  const store = await freshStore({ workers: 2, partitionRows: 4000, inlineRows: 1000, compactRun: 1000 });
  const ctx = (store as unknown as { ctx: StoreContext }).ctx;
  const t = store.table('t');
  await t.create(schema);
  const rows = (from: number, n: number) => Array.from({ length: n }, (_, k) => ({ id: from + k, v: (from + k) % 9 === 0 ? null : from + k }));
  await t.insert(rows(0, 2000));
  for (let i = 0; i < 6; i++) await t.insert(rows(2000 + i * 50, 50));
  const inline = counted(ctx.inline);
  const pooled = counted(ctx.pool!);
  const want = (lo: number) => rows(0, 2300).filter((r) => r.v !== null && r.v >= lo).length;
  // every partition straddles `v >= 10`: the big one is pooled, the deltas ride along
  expect(await t.select('v >= 10 and id % 2 == 0').count()).toBe(rows(0, 2300).filter((r) => r.v !== null && r.v >= 10 && r.id % 2 === 0).length);
  expect(inline.tasks).toBe(0);
  expect(pooled.tasks).toBe(7);
  // only the deltas can match (zone maps rule the big partition out): no pool, so they run here
  expect(await t.select('v >= 2010 and id % 2 == 0').count()).toBe(rows(0, 2300).filter((r) => r.v !== null && r.v >= 2010 && r.id % 2 === 0).length);
  expect(inline.tasks).toBe(6);
  expect(pooled.tasks).toBe(7);
  // deletes and replaces find their rows the same way
  await t.transaction(async (tx) => expect(await tx.delete('v >= 1990 and id % 2 == 1')).toBe(rows(0, 2300).filter((r) => r.v !== null && r.v >= 1990 && r.id % 2 === 1).length));
  expect(await t.select('v >= 10').count()).toBe(want(10) - rows(0, 2300).filter((r) => r.v !== null && r.v >= 1990 && r.id % 2 === 1).length);
});

it('keeps a task whose columns are not all in shared memory off the pool', () => {
  const { typed, key, columns } = prepareFilter('v > 1', schema);
  const values = Float64Array.from([1, 2, 3]);
  const plain = makeData({ type: new Float64(), length: 3, nullCount: 0, data: values });
  const task = (data: Data): ScanTask => ({ mode: 'count', length: 3, filter: { typed, key, columns }, columns: { v: taskColumn(data) }, project: [] });
  expect(rideAlong(task(plain))).toBe(false); // a transaction's own rows: posting would copy them
  expect(rideAlong(task(sharedData(plain, true)))).toBe(true);
});
