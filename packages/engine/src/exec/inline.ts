// The inline executor: scans on the calling thread, for small work where a worker round trip dominates.
import type { Executor } from './executor.js';
import { runScan } from './scan.js';
import type { ScanResult, ScanTask } from './task.js';

/** Runs tasks synchronously on the calling thread. */
export class InlineExecutor implements Executor {
  readonly concurrency = 1;

  run(task: ScanTask): Promise<ScanResult> {
    try {
      return Promise.resolve(runScan(task));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  runBatch(tasks: readonly ScanTask[]): Promise<ScanResult[]> {
    try {
      return Promise.resolve(tasks.map(runScan));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  async close(): Promise<void> {}
}
