// Runs scan tasks: inline on the calling thread, or on a Piscina worker pool.
import type { ScanResult, ScanTask } from './task.js';

/** Something that runs scan tasks. */
export interface Executor {
  run(task: ScanTask): Promise<ScanResult>;
  /** Runs `tasks` one after the other as one unit of work (one round trip to a worker); results in order. */
  runBatch(tasks: readonly ScanTask[]): Promise<ScanResult[]>;
  /** How many tasks it runs at once. */
  readonly concurrency: number;
  close(): Promise<void>;
}
