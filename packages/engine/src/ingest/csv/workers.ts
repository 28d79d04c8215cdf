// Warm CSV parsing workers: starting one (a thread, then its modules loaded and compiled) costs about
// as much as parsing the first blocks, so a finished ingest hands its workers back here; idle workers
// are unref'd (they never keep the process alive) and ended after IDLE_MS.
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../worker-entry.js';

const IDLE_MS = 10_000;
const MAX_IDLE = 4;
const idle = new Map<Worker, NodeJS.Timeout>();

/** An idle worker, or a new one. */
export function acquireParser(): Worker {
  for (const [worker, timer] of idle) {
    idle.delete(worker);
    clearTimeout(timer);
    worker.ref();
    return worker;
  }
  const { filename, eval: inline } = workerEntry('csv/worker');
  const worker = new Worker(filename, { eval: inline });
  worker.on('exit', () => idle.delete(worker));
  worker.on('error', () => idle.delete(worker));
  return worker;
}

/** Takes back a worker with no request outstanding (its caller's listeners removed). */
export function releaseParser(worker: Worker): void {
  if (idle.size >= MAX_IDLE) {
    void worker.terminate();
    return;
  }
  worker.unref();
  const timer = setTimeout(() => {
    idle.delete(worker);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle.set(worker, timer);
}
