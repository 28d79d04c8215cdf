// Runs scan tasks: inline on the calling thread, or on a Piscina worker pool.
import type { ScanResult, ScanTask } from './task.js';

/** Something that runs scan tasks. */
export interface Executor {
  run(task: ScanTask): Promise<ScanResult>;
  /** How many tasks it runs at once. */
  readonly concurrency: number;
  close(): Promise<void>;
}
