// The pool executor hands each worker its next task ahead (TASKS_PER_WORKER), results unchanged.
import { Field, Float64, Schema, vectorFromArray } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareFilter } from '../expr/index.js';
import { sharedData } from '../write/part-writer.js';
import { taskColumn } from './arrays.js';
import { PoolExecutor, TASKS_PER_WORKER } from './pool.js';
import type { ScanTask } from './task.js';

const schema = new Schema([new Field('x', new Float64(), false)]);
const pool = new PoolExecutor(1);
afterAll(() => pool.close());

describe('PoolExecutor', () => {
  it('posts each worker its next task while it runs one, and answers every task in full', async () => {
    const values = Array.from({ length: 50_000 }, (_, i) => i % 100);
    const column = taskColumn(sharedData(vectorFromArray(values, new Float64()).data[0]!));
    const tasks = Array.from({ length: 6 }, (_, k): ScanTask => {
      const { typed, key, columns } = prepareFilter(`x >= ${k * 10}`, schema);
      return { mode: 'count', length: values.length, filter: { typed, key, columns }, columns: { x: column }, project: [], deleted: null };
    });
    const running = tasks.map((t) => pool.run(t));
    // one worker: TASKS_PER_WORKER tasks went to it at once, the rest wait in the pool's queue
    expect((pool as unknown as { pool: { queueSize: number } }).pool.queueSize).toBe(tasks.length - TASKS_PER_WORKER);
    expect((await Promise.all(running)).map((r) => r.count)).toEqual(tasks.map((_, k) => values.filter((v) => v >= k * 10).length));
  });

  it('runs a batch of tasks in one round trip, results in order; an engine error rejects the batch with its code', async () => {
    const values = Array.from({ length: 1000 }, (_, i) => i % 100);
    const column = taskColumn(sharedData(vectorFromArray(values, new Float64()).data[0]!));
    const tasks = Array.from({ length: 5 }, (_, k): ScanTask => {
      const { typed, key, columns } = prepareFilter(`x < ${k * 20}`, schema);
      return { mode: 'select', withRows: true, length: values.length, filter: { typed, key, columns }, columns: { x: column }, project: [], deleted: null };
    });
    const results = await pool.runBatch(tasks);
    expect(results.map((r) => r.count)).toEqual(tasks.map((_, k) => values.filter((v) => v < k * 20).length));
    expect([...results[1]!.rows!]).toEqual(values.flatMap((v, i) => (v < 20 ? [i] : [])));
    const bad = { ...tasks[0]!, length: -1 }; // the kernel refuses it with InvalidArgument
    await expect(pool.runBatch([tasks[1]!, bad])).rejects.toMatchObject({ code: 'InvalidArgument' });
  });
});
