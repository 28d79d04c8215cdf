// Warm ingest workers: starting one (a thread, then its modules loaded and compiled, parquet-wasm
// instantiated) costs about as much as reading the first blocks of a file, so a finished ingest hands
// its workers back to their kind's `WarmWorkers`; idle workers are unref'd (they never keep the
// process alive) and ended after IDLE_MS.
import { Worker } from 'node:worker_threads';
import { workerEntry } from './worker-entry.js';

const IDLE_MS = 10_000;

/** Idle worker threads of one entry module, kept for reuse (at most `maxIdle`, each for 10 s). */
export class WarmWorkers {
  private readonly idle = new Map<Worker, NodeJS.Timeout>();

  /** `entry` as `workerEntry` takes it, e.g. `'csv/worker'`. */
  constructor(
    private readonly entry: string,
    private readonly maxIdle: number,
  ) {}

  /** An idle worker, or a new one. */
  acquire(): Worker {
    for (const [worker, timer] of this.idle) {
      this.idle.delete(worker);
      clearTimeout(timer);
      worker.ref();
      return worker;
    }
    const { filename, eval: inline } = workerEntry(this.entry);
    const worker = new Worker(filename, { eval: inline });
    worker.on('exit', () => this.idle.delete(worker));
    worker.on('error', () => this.idle.delete(worker));
    return worker;
  }

  /** Takes back a worker with no request outstanding (its caller's listeners removed). */
  release(worker: Worker): void {
    if (this.idle.size >= this.maxIdle) {
      void worker.terminate();
      return;
    }
    worker.unref();
    const timer = setTimeout(() => {
      this.idle.delete(worker);
      void worker.terminate();
    }, IDLE_MS);
    timer.unref();
    this.idle.set(worker, timer);
  }
}
